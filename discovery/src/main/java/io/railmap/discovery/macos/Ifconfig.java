package io.railmap.discovery.macos;

import io.railmap.discovery.model.Quote;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What {@code ifconfig -a} says about each interface: its {@code inet} and {@code inet6} addresses
 * and, for a bridge, its {@code member:} lines. The output is one block per interface: a header
 * {@code <name>: flags=...} at the start of a line, then lines indented by a tab (or spaces), of
 * which only these are read:
 * <pre>
 *     inet 169.254.205.255 netmask 0xffff0000 broadcast 169.254.255.255
 *     inet6 fe80::1021:1bac:fe1:b5e3%en2 prefixlen 64 secured scopeid 0xb
 *     member: en2 flags=3&lt;LEARNING,DISCOVER&gt;
 * </pre>
 * The addresses are kept as written ({@code %zone} and all; {@link io.railmap.discovery.model.PortAddresses}
 * checks and cleans them), each followed by {@code /N} when its line gives a prefix length
 * ({@link #prefixLength}).
 *
 * <p>Errors: an odd line costs only what it says: a {@code member:} line naming no
 * interface is ignored; an interface that two bridges claim gets no bridge; an interface listed twice
 * gets no addresses; a line that is neither a header nor indented is ignored. Each kind of odd line
 * gives at most one note, naming the first such line and counting the others.
 *
 * @param source    the command or capture file, for notes
 * @param addresses interface → the addresses its block lists, in output order
 * @param bridges   member interface → the bridge whose block lists it
 * @param notes     what was ignored, one sentence each naming the source
 */
record Ifconfig(String source, Map<String, List<String>> addresses, Map<String, String> bridges, List<String> notes) {
    /** A BSD interface name ({@code en2}, {@code bridge0}, {@code XHC20}): a letter, then letters and digits, at most 15. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]{0,14}");
    private static final Pattern HEADER = Pattern.compile("(" + NAME.pattern() + "): flags=.*");

    Ifconfig {
        addresses = addresses.entrySet().stream().collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> List.copyOf(e.getValue())));
        bridges = Map.copyOf(bridges);
        notes = List.copyOf(notes);
    }

    /** @return what the output says; never fails, whatever the text */
    static Ifconfig parse(CommandOutput output) {
        Map<String, List<String>> addresses = new HashMap<>();
        Map<String, String> bridges = new HashMap<>();
        Set<String> listedTwice = new HashSet<>();
        Set<String> claimedTwice = new HashSet<>();
        Tally strays = new Tally("is neither an interface header nor an indented line; ignored");
        Tally badMembers = new Tally("names a member that is no interface name; ignored");
        Tally twice = new Tally("lists an interface a second time; its addresses unknown");
        Tally twoBridges = new Tally("lists as a member an interface another bridge holds; its bridge unknown");
        String block = null;
        String[] lines = output.text().split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            String where = output.source() + ": line " + (i + 1) + " " + Quote.value(line.strip());
            if (!Character.isWhitespace(line.charAt(0))) {
                Matcher header = HEADER.matcher(line);
                if (header.matches()) {
                    block = header.group(1);
                    if (addresses.putIfAbsent(block, new ArrayList<>()) != null) {
                        listedTwice.add(block);
                        twice.add(where);
                    }
                } else {
                    strays.add(where);
                }
                continue;
            }
            if (block == null) {
                strays.add(where);
                continue;
            }
            String[] words = line.strip().split("\\s+");
            if ((words[0].equals("inet") || words[0].equals("inet6")) && words.length > 1) {
                addresses.get(block).add(words[1] + prefixLength(words));
            } else if (words[0].equals("member:")) {
                String member = words.length > 1 ? words[1] : "";
                if (!NAME.matcher(member).matches()) {
                    badMembers.add(where);
                } else if (bridges.containsKey(member) && !bridges.get(member).equals(block)) {
                    claimedTwice.add(member);
                    twoBridges.add(where);
                } else {
                    bridges.put(member, block);
                }
            }
        }
        listedTwice.forEach(addresses::remove);
        claimedTwice.forEach(bridges::remove);
        List<String> notes = new ArrayList<>();
        for (Tally tally : List.of(strays, badMembers, twice, twoBridges)) {
            tally.note().ifPresent(notes::add);
        }
        return new Ifconfig(output.source(), addresses, bridges, notes);
    }

    /**
     * The prefix length an {@code inet} or {@code inet6} line gives, as {@code /N} after the address
     * ({@link io.railmap.discovery.model.PortAddresses} reads it so); empty when the line gives none or
     * an odd one, which leaves the address's length unknown.
     * <ul>
     *   <li>{@code inet}: the {@code netmask}, {@code 0x} and hexadecimal digits without leading zeros
     *       (after a {@code --> destination} on a point-to-point link), is the number of its ones when
     *       they are contiguous from the top ({@code 0xffff0000} is {@code /16}, {@code 0x0} is {@code /0}).</li>
     *   <li>{@code inet6}: the {@code prefixlen}, but not 0, which is also printed for a mask that is
     *       not contiguous ones.</li>
     * </ul>
     * Source: apple-oss-distributions network_cmds {@code ifconfig.tproj/af_inet.c} {@code in_status}
     * ({@code "netmask 0x%lx"}), {@code af_inet6.c} {@code in6_status} and {@code prefix()}.
     */
    static String prefixLength(String[] words) {
        for (int i = 2; i + 1 < words.length; i++) {
            if (words[0].equals("inet") && words[i].equals("netmask")) {
                if (!words[i + 1].matches("0x[0-9a-fA-F]{1,8}")) {
                    return "";
                }
                long mask = Long.parseLong(words[i + 1].substring(2), 16);
                int ones = Long.bitCount(mask);
                return mask == (0xffff_ffffL << (32 - ones) & 0xffff_ffffL) ? "/" + ones : "";
            }
            if (words[0].equals("inet6") && words[i].equals("prefixlen")) {
                return words[i + 1].matches("[0-9]{1,3}") && Integer.parseInt(words[i + 1]) > 0 ? "/" + words[i + 1] : "";
            }
        }
        return "";
    }

    /** Odd lines of one kind: one note for all, naming the first and counting the rest. */
    private static final class Tally {
        private final String what;
        private String first;
        private int count;

        Tally(String what) {
            this.what = what;
        }

        void add(String where) {
            first = first == null ? where : first;
            count++;
        }

        Optional<String> note() {
            return first == null ? Optional.empty()
                    : Optional.of(first + " " + what + (count > 1 ? " (and " + (count - 1) + " more such lines)" : ""));
        }
    }

    /** @return the addresses listed for an interface, as written; empty when the output has no (single) block for it */
    Optional<List<String>> addresses(String netdev) {
        return Optional.ofNullable(addresses.get(netdev));
    }

    /** @return the bridge that lists the interface as a member, if one (and only one) does */
    Optional<String> bridge(String netdev) {
        return Optional.ofNullable(bridges.get(netdev));
    }
}
