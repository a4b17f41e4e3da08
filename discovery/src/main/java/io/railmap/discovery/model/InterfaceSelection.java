package io.railmap.discovery.model;

import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.PatternSyntaxException;

/**
 * Which interfaces the operator wants as ports, from a comma-separated list of globs such as
 * {@code --interfaces 'veth*,en*,!mlx5_1'}. Globs follow {@link java.nio.file.FileSystem#getPathMatcher}
 * ({@code *}, {@code ?}, {@code [a-z]}, {@code {a,b}} — braces may not hold a comma here, since the
 * comma separates entries).
 *
 * <ul>
 *   <li>A plain entry <em>includes</em> netdevs without RDMA: such a netdev is a port (kind
 *       ethernet) only when some include glob matches its name.</li>
 *   <li>An entry starting with {@code !} <em>excludes</em>: a port whose netdev or RDMA device name
 *       matches it is left out, whatever else matches.</li>
 *   <li>RDMA ports (InfiniBand, RoCE, Thunderbolt with {@code rdma_enX}) are always taken unless an
 *       exclude entry matches them: include entries never narrow them, so {@code 'veth*'} adds veths
 *       to the RDMA ports rather than replacing them.</li>
 * </ul>
 * The default, {@link #rdmaOnly()}, takes every RDMA port and no plain netdev.
 */
public final class InterfaceSelection {
    private static final InterfaceSelection RDMA_ONLY = new InterfaceSelection(List.of(), List.of());

    private final List<Glob> includes;
    private final List<Glob> excludes;

    private InterfaceSelection(List<Glob> includes, List<Glob> excludes) {
        this.includes = List.copyOf(includes);
        this.excludes = List.copyOf(excludes);
    }

    /** @return the default selection: every RDMA port, no plain netdev */
    public static InterfaceSelection rdmaOnly() {
        return RDMA_ONLY;
    }

    /**
     * Parses a comma-separated list; spaces around entries are ignored.
     *
     * @param list for example {@code "veth*,en*,!mlx5_1"}; blank means {@link #rdmaOnly()}
     * @return the selection
     * @throws IllegalArgumentException when an entry is empty ({@code "a,,b"}, a lone {@code !}) or
     *                                  is not a valid glob; the message quotes the entry
     */
    public static InterfaceSelection parse(String list) {
        if (list == null || list.isBlank()) {
            return RDMA_ONLY;
        }
        List<Glob> includes = new ArrayList<>();
        List<Glob> excludes = new ArrayList<>();
        for (String raw : list.split(",", -1)) {
            String entry = raw.strip();
            boolean exclude = entry.startsWith("!");
            String glob = exclude ? entry.substring(1).strip() : entry;
            if (glob.isEmpty()) {
                throw new IllegalArgumentException("interface selection \"" + list + "\" has an empty entry");
            }
            (exclude ? excludes : includes).add(new Glob(entry, compile(entry, glob)));
        }
        return new InterfaceSelection(includes, excludes);
    }

    /**
     * @param netdev the name of a netdev without RDMA
     * @return true when an include entry matches it and no exclude entry does
     */
    public boolean selectsPlain(String netdev) {
        return includes.stream().anyMatch(g -> g.matches(netdev)) && excludedBy(netdev).isEmpty();
    }

    /**
     * @param names the names a port goes by (its netdev, its RDMA device)
     * @return the first exclude entry, {@code !} included, that matches one of them; empty when none
     */
    public Optional<String> excludedBy(String... names) {
        for (Glob glob : excludes) {
            for (String name : names) {
                if (glob.matches(name)) {
                    return Optional.of(glob.entry());
                }
            }
        }
        return Optional.empty();
    }

    private static PathMatcher compile(String entry, String glob) {
        try {
            return FileSystems.getDefault().getPathMatcher("glob:" + glob);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("interface selection entry \"" + entry + "\" is not a valid glob: "
                    + e.getDescription(), e);
        }
    }

    private record Glob(String entry, PathMatcher matcher) {
        /** False for a name no interface can have (empty, with '/' or NUL), which is no path either. */
        boolean matches(String name) {
            if (name.isEmpty() || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
                return false;
            }
            try {
                return matcher.matches(Path.of(name));
            } catch (InvalidPathException e) {
                return false;
            }
        }
    }
}
