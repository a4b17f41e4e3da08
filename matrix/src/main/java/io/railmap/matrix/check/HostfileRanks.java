package io.railmap.matrix.check;

import io.railmap.matrix.codec.Hostfile;
import io.railmap.matrix.model.Names;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The node of each host of an mlx.launch hostfile, in rank order. A host's {@code ssh} value, less
 * any {@code user@} before it (as ssh reads it), names a node
 * <ol>
 * <li>exactly ({@code studio-a});</li>
 * <li>when it is an IP address, by the management address in the node's record;</li>
 * <li>else by its part before the first dot ({@code studio-a.local} is {@code studio-a}: railmapd's
 *     default node name is the host name up to its first dot).</li>
 * </ol>
 * A list of nodes given with the file ({@code --hosts}) must agree with it: one node per host, and
 * where a host names a node, the same node; a host that names none (an ssh alias) is the given
 * node. Without such a list every host must name a node.
 */
final class HostfileRanks {
    /** At most this many unknown hosts and known nodes are named in a message. */
    static final int SHOWN = 16;
    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
    /** Only hex digits, colons and dots, starting with a hex digit or a colon: parsed by the JDK as a literal, never looked up. */
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:][0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private HostfileRanks() {
    }

    /**
     * @param source      what the file came from, for messages
     * @param file        the hostfile
     * @param nodes       the nodes railmap knows
     * @param management  the management address of a node, if its record has one
     * @param given       the node of each rank given with the file, if any
     * @param hostsOption how that list is given ({@code --hosts}, {@code hosts=}), for messages
     * @return the node of each host, in rank order
     * @throws UnknownHostsException    when no list is given and hosts name no node (the message
     *                                  names at most {@value #SHOWN} of them, and the known nodes)
     * @throws IllegalArgumentException when the given list does not agree with the file, or two
     *                                  hosts name one node
     */
    static List<String> resolve(String source, Hostfile file, List<String> nodes, Function<String, Optional<String>> management,
                                Optional<List<String>> given, String hostsOption) {
        int n = file.hosts().size();
        if (given.isPresent() && given.get().size() != n) {
            throw new IllegalArgumentException(hostsOption + " names " + given.get().size() + (given.get().size() == 1 ? " node" : " nodes")
                    + " but " + source + " has " + n + (n == 1 ? " host" : " hosts") + ": leave " + hostsOption
                    + " out (the file gives the order), or name the node of each host in file order");
        }
        Set<String> known = Set.copyOf(nodes);
        Map<InetAddress, String> byAddress = new HashMap<>();
        for (String node : nodes) {
            management.apply(node).flatMap(HostfileRanks::literal).ifPresent(a -> byAddress.putIfAbsent(a, node));
        }
        List<String> ranks = new ArrayList<>(n);
        List<Integer> unknown = new ArrayList<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String ssh = file.hosts().get(i).ssh();
            Optional<String> named = node(ssh, known, byAddress);
            if (given.isPresent()) {
                String asked = given.get().get(i);
                if (named.isPresent() && !named.get().equals(asked)) {
                    throw new IllegalArgumentException(hostsOption + " does not agree with " + source + ": host " + i + " (ssh \""
                            + Names.escape(ssh) + "\") is node " + named.get() + ", but " + hostsOption + " names " + asked + " for rank " + i
                            + ": leave " + hostsOption + " out (the file gives the order), or name the file's hosts in its order");
                }
                ranks.add(asked);
            } else if (named.isPresent()) {
                Integer before = seen.putIfAbsent(named.get(), i);
                if (before != null) {
                    throw new IllegalArgumentException(source + ": at " + file.path(i) + ".ssh: \"" + Names.escape(ssh) + "\" is node "
                            + named.get() + ", like host " + before + " (\"" + Names.escape(file.hosts().get(before).ssh())
                            + "\"): railmap checks one rank per node; list each node once");
                }
                ranks.add(named.get());
            } else {
                unknown.add(i);
            }
        }
        if (!unknown.isEmpty()) {
            throw unknown(source, file, unknown, nodes, hostsOption);
        }
        return List.copyOf(ranks);
    }

    private static Optional<String> node(String ssh, Set<String> nodes, Map<InetAddress, String> byAddress) {
        String host = ssh.substring(ssh.lastIndexOf('@') + 1);
        if (nodes.contains(host)) {
            return Optional.of(host);
        }
        Optional<InetAddress> address = literal(host);
        if (address.isPresent()) {
            return Optional.ofNullable(byAddress.get(address.get()));
        }
        int dot = host.indexOf('.');
        return dot > 0 && nodes.contains(host.substring(0, dot)) ? Optional.of(host.substring(0, dot)) : Optional.empty();
    }

    /** @return the address when the text is an IPv4 or IPv6 literal (parsed, never looked up) */
    static Optional<InetAddress> literal(String text) {
        if (!IPV4.matcher(text).matches() && !IPV6.matcher(text).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(text));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static UnknownHostsException unknown(String source, Hostfile file, List<Integer> unknown, List<String> nodes, String hostsOption) {
        List<Integer> shown = unknown.subList(0, Math.min(SHOWN, unknown.size()));
        String hosts = shown.stream().map(i -> "\"" + Names.escape(file.hosts().get(i).ssh()) + "\" (rank " + i + ")")
                .collect(Collectors.joining(", ")) + (unknown.size() > shown.size() ? " and " + (unknown.size() - shown.size()) + " more" : "");
        String known = nodes.isEmpty() ? "none" : String.join(", ", nodes.subList(0, Math.min(SHOWN, nodes.size())))
                + (nodes.size() > SHOWN ? " and " + (nodes.size() - SHOWN) + " more" : "");
        return new UnknownHostsException(source + ": at " + file.path(unknown.get(0)) + ".ssh: " + hosts
                + (unknown.size() == 1 ? " is no node" : " are no nodes") + " railmap knows (known: " + known + "); an ssh name matches "
                + "a node by its whole name, by its name up to the first dot, or by the node's management address; when the file "
                + "names hosts otherwise (ssh aliases), give " + hostsOption + " with the node of each host, in file order",
                shown.stream().map(i -> file.hosts().get(i).ssh()).toList());
    }
}
