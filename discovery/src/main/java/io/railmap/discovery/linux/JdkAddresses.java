package io.railmap.discovery.linux;

import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The IP addresses of the netdevs of this process's network namespace, from the JDK's
 * {@link NetworkInterface}: what the kernel holds for the namespace the daemon runs in. On Linux the
 * JDK lists only netdevs that have an address, so a netdev that sysfs shows and this list lacks has
 * none.
 */
final class JdkAddresses {
    /** Where the addresses come from, for notes. */
    static final String SOURCE = "the JDK's interface list (java.net.NetworkInterface)";

    private JdkAddresses() {
    }

    /**
     * @return netdev name → its addresses as the JDK writes them (IPv6 with a {@code %scope} suffix),
     *         each followed by {@code /} and its prefix length ({@link InterfaceAddress#getNetworkPrefixLength()},
     *         what the kernel holds: {@code ip addr}'s length), as {@link io.railmap.discovery.model.PortAddresses} reads them
     * @throws SocketException when the interfaces cannot be listed
     */
    static Map<String, List<String>> read() throws SocketException {
        Map<String, List<String>> out = new HashMap<>();
        var nics = NetworkInterface.getNetworkInterfaces();
        if (nics == null) {
            return out;
        }
        for (NetworkInterface nic : Collections.list(nics)) {
            out.put(nic.getName(), nic.getInterfaceAddresses().stream().filter(a -> a.getAddress() != null)
                    .map(a -> a.getAddress().getHostAddress() + "/" + a.getNetworkPrefixLength()).toList());
        }
        return out;
    }
}
