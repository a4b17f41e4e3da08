package io.railmap.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a lab's ssh refuses before it makes anything, and the files it writes, without root (the
 * sshd and client themselves: the cli module's {@code LabSshEndToEndTest}).
 */
class LabSshTest {
    private static final LabTopology TWO = LabTopology.read("t", "{\"nodes\": [\"a\", \"b\"], \"cables\": [[\"a:en6\", \"b:en7\"]]}");

    @TempDir
    Path dir;

    @Test
    void aLabDirectoryOrANodeNameThatSshConfigurationsWouldReadOtherwiseTurnsSshOffSayingWhatToDo() {
        for (String bad : List.of("with space", "per%cent", "co:lon", "quo\"te", "~tilde")) {
            assertThat(new LabSsh(dir.resolve(bad), new LabNames("rmt")).unavailable(TWO, "root")).as(bad).hasValueSatisfying(why ->
                    assertThat(why).contains("the lab directory", "set RAILMAP_LAB_DIR to a plainer directory"));
        }
        for (String node : List.of("-oProxyCommand=x", "star*", "bang!", ".dot")) {
            LabTopology t = LabTopology.read("t", "{\"nodes\": [\"" + node + "\", \"b\"], \"cables\": []}");
            assertThat(new LabSsh(dir, new LabNames("rmt")).unavailable(t, "root")).as(node).hasValueSatisfying(why ->
                    assertThat(why).contains("cannot be an ssh host name", "rename the node"));
        }
    }

    @Test
    void anAccountLockedWithBangCannotLogInToSshdWithoutPamSoSshIsOffAndTheMessageSaysHowToUnlockIt() throws Exception {
        Path shadow = Files.writeString(dir.resolve("shadow"), "daemon:*:19000:0:99999:7:::\nroot:!:19000:0:99999:7:::\nrootless:*:1::::::\n");
        assertThat(LabSsh.lockedAccount("root", shadow)).hasValueSatisfying(why -> assertThat(why).contains("is locked", "usermod -p '*' root"));
        assertThat(LabSsh.lockedAccount("daemon", shadow)).isEmpty();
        assertThat(LabSsh.lockedAccount("rootless", shadow)).isEmpty();
        assertThat(LabSsh.lockedAccount("root", dir.resolve("absent"))).isEmpty();
    }

    @Test
    void eachNodeIsKnownByNameAndAddressAndItsSshdListensOnItsManagementAddressOnly() {
        LabSsh ssh = new LabSsh(dir, new LabNames("rmt"));
        Map<String, String> addresses = new LinkedHashMap<>(Map.of("a", "10.231.0.1"));
        addresses.put("b", "10.231.0.2");
        assertThat(LabSsh.knownHosts(addresses, "ssh-ed25519 AAAAkey"))
                .isEqualTo("a,10.231.0.1 ssh-ed25519 AAAAkey\nb,10.231.0.2 ssh-ed25519 AAAAkey\n");
        assertThat(LabSsh.authorizedKeys("ssh-ed25519 AAAAclient")).startsWith("restrict,pty ssh-ed25519 AAAAclient ");
        assertThat(ssh.serverConfig("b", "10.231.0.2", "root").lines()).contains("ListenAddress 10.231.0.2:22",
                "PidFile " + dir.resolve("ssh/sshd-b.pid"), "AuthorizedKeysFile " + dir.resolve("ssh/authorized_keys"),
                "AllowUsers root", "UsePAM no", "PasswordAuthentication no", "PermitRootLogin prohibit-password", "X11Forwarding no",
                "AllowAgentForwarding no", "PermitUserRC no");
        String client = ssh.clientConfig(addresses, "root");
        assertThat(client).contains("Host a 10.231.0.1\n    HostName 10.231.0.1\n", "Host b 10.231.0.2\n    HostName 10.231.0.2\n");
        // every other option under Host *: a host outside the lab still gets the lab's key and known hosts, never ~/.ssh's
        assertThat(client.substring(client.indexOf("Host *\n")).lines()).contains("    UserKnownHostsFile " + dir.resolve("ssh/known_hosts"),
                "    GlobalKnownHostsFile /dev/null", "    IdentitiesOnly yes", "    IdentityAgent none", "    StrictHostKeyChecking yes",
                "    BatchMode yes", "    ConnectTimeout 5");
    }

    /** The shim's words reach ssh as they are, through sh: a quote in a path stays a quote. */
    @Test
    void theShimPassesItsPathsAndArgumentsToIpAsWordsOfTheirOwn() throws Exception {
        Path args = dir.resolve("args");
        Path ip = Files.writeString(dir.resolve("ip"), "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]' \"$a\"; done > '" + args + "'\n");
        ip.toFile().setExecutable(true);
        Path shim = Files.writeString(dir.resolve("shim"), new LabSsh(dir, new LabNames("rmt")).shim(ip.toString(), "/usr/bin/o'ssh"));
        Process p = new ProcessBuilder("sh", shim.toString(), "-tt", "a", "echo 'x y'").start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(args)).isEqualTo("[netns][exec][rmt-mgmt][/usr/bin/o'ssh][-F][" + dir.resolve("ssh/ssh_config")
                + "][-tt][a][echo 'x y']");
    }
}
