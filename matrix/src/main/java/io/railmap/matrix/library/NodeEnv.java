package io.railmap.matrix.library;

import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.rail.UnknownNodesException;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Several libraries' settings for one node, as {@code railmap env} prints them and
 * {@code GET /v1/env} answers.
 *
 * <pre>
 * text: # gpu-01 compute NICs      JSON: {"node": "gpu-01", "findings": [finding, ...],
 *       # info cable-left-out ...        "libraries": [{"library": "nccl",
 *       # nccl                           "settings": {"NCCL_IB_HCA": "=mlx5_0:1:0", ...},
 *       # warning ...                    "findings": [finding, ...]}, ...]}
 *       NCCL_IB_HCA=...
 * </pre>
 * The JSON is {@link NodeEnvJson}'s, findings {@link FindingJson}s. What concerns the choice of compute NICs (a slower NIC
 * left out, none left) is said once for the node, not once per library. A variable several libraries
 * set (UCX's, NIXL's and ModelExpress's {@code UCX_NET_DEVICES}, every library's provenance) is written
 * once, by the first library that sets it; one they set to different values is written with the first
 * value only, and the later library gets a {@link Code#SETTING_CONFLICT} error, since in one file the
 * later line would silently win.
 *
 * @param node      the node
 * @param findings  about the node's compute NICs ({@link NodeNics#findings()})
 * @param libraries each library's settings, in the order asked, without the node's findings
 */
public record NodeEnv(String node, List<Finding> findings, List<NodeSettings> libraries) {
    /** Longest {@code --for} list taken, in characters. */
    public static final int MAX_FOR_CHARS = 256;

    /** Copies the list. */
    public NodeEnv {
        findings = List.copyOf(findings);
        libraries = List.copyOf(libraries);
    }

    /**
     * @param names a comma-separated list of library names, any case ({@code nccl,ucx})
     * @return the libraries, distinct, in the order named
     * @throws IllegalArgumentException when the list is empty or longer than {@value #MAX_FOR_CHARS}
     *                                  characters, or a name is unknown (naming the known ones)
     */
    public static List<Library> libraries(String names) {
        if (names == null || names.isBlank() || names.length() > MAX_FOR_CHARS) {
            throw new IllegalArgumentException("the library list is " + (names == null || names.isBlank() ? "empty" : "longer than "
                    + MAX_FOR_CHARS + " characters") + ": give one or more of " + String.join(", ",
                    Libraries.ALL.stream().map(Library::name).toList()) + ", separated by ','");
        }
        return List.copyOf(new LinkedHashSet<>(Arrays.stream(names.split(",", -1)).map(Libraries::named).toList()));
    }

    /**
     * @param libraries the libraries asked for
     * @param options   the user's choices
     * @param name      how the caller names an option ({@link LibraryOption#flag()} on the command
     *                  line, {@link LibraryOption#param()} in the API)
     * @throws IllegalArgumentException naming the option and the libraries that read it when an
     *                                  option is chosen that none of {@code libraries} reads
     */
    public static void requireRead(List<Library> libraries, SettingsOptions options, Function<LibraryOption, String> name) {
        for (LibraryOption o : LibraryOption.values()) {
            if (o.chosen(options) && libraries.stream().noneMatch(l -> l.options().contains(o))) {
                String readers = Libraries.ALL.stream().filter(l -> l.options().contains(o)).map(Library::name).collect(Collectors.joining(", "));
                throw new IllegalArgumentException(name.apply(o) + " is read by " + readers + " only, and the library list ("
                        + libraries.stream().map(Library::name).collect(Collectors.joining(",")) + ") does not name it: add "
                        + readers + " to the list or leave " + name.apply(o) + " out");
            }
        }
    }

    /**
     * @param topology  every record
     * @param node      the node
     * @param libraries the libraries
     * @param options   the user's choices
     * @return each library's settings for the node
     * @throws UnknownNodesException when the node has no record
     */
    public static NodeEnv of(Topology topology, String node, List<Library> libraries, SettingsOptions options) {
        NodeNics nics = ComputeNics.of(topology, RailTable.of(topology), node, options);
        List<NodeSettings> settings = new ArrayList<>();
        Map<String, Setting> written = new HashMap<>();
        Map<String, String> writtenBy = new HashMap<>();
        for (Library library : libraries) {
            NodeSettings s = library.settings(nics);
            List<Finding> own = new ArrayList<>(s.findings().stream().filter(f -> !nics.findings().contains(f)).toList());
            List<Setting> kept = new ArrayList<>();
            for (Setting v : s.settings()) {
                Setting first = written.putIfAbsent(v.key(), v);
                if (first == null) {
                    writtenBy.put(v.key(), s.library());
                    kept.add(v);
                } else if (!first.value().equals(v.value())) {
                    own.add(new Finding(Code.SETTING_CONFLICT, Severity.ERROR, List.of(), Optional.empty(), s.library() + " sets " + v
                            + ", but " + writtenBy.get(v.key()) + " sets " + first + " above, and in one file the later line wins: "
                            + "only the first is written; ask for " + s.library() + " and " + writtenBy.get(v.key()) + " in two files"));
                }
            }
            settings.add(new NodeSettings(s.library(), s.node(), kept, own));
        }
        return new NodeEnv(node, nics.findings(), settings);
    }

    /** @return true when the node's or a library's findings hold an error */
    public boolean hasErrors() {
        return findings.stream().anyMatch(Finding::isError)
                || libraries.stream().flatMap(l -> l.findings().stream()).anyMatch(Finding::isError);
    }

    /**
     * @return the settings as environment lines: per library a {@code # library} line, its findings
     *         as {@code # severity code [rail k] message} lines, then {@code KEY=VALUE} lines; ends with a newline
     */
    public String text() {
        StringBuilder out = new StringBuilder();
        if (!findings.isEmpty()) {
            out.append("# ").append(node).append(" compute NICs\n");
            findings.forEach(f -> comment(out, f));
        }
        for (NodeSettings s : libraries) {
            out.append("# ").append(s.library()).append('\n');
            s.findings().forEach(f -> comment(out, f));
            s.settings().forEach(v -> out.append(v).append('\n'));
        }
        return out.toString();
    }

    private static void comment(StringBuilder out, Finding f) {
        out.append("# ").append(f.severity().externalName()).append(' ').append(f.code().externalName())
                .append(f.rail().map(k -> " [rail " + k + "]").orElse("")).append(' ').append(f.message()).append('\n');
    }

    /** @return the JSON form above ({@link NodeEnvJson}), indented, ending with a newline */
    public String json() {
        return NodeEnvJson.render(this);
    }
}
