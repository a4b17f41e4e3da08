package io.railmap.matrix.library;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.codec.JsonText;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node's settings ({@link NodeEnv}) as JSON, for {@code railmap env --json} and {@code GET /v1/env?format=json};
 * written by Jackson in this order:
 *
 * <pre>
 * {"node": "gpu-01", "findings": [finding, ...],
 *  "libraries": [{"library": "nccl", "settings": {"NCCL_IB_HCA": "=mlx5_0:1:0", ...}, "findings": [finding, ...]}, ...]}
 * </pre>
 * Findings are {@link FindingJson}s: {@code findings} those about the node's compute NICs, each library's
 * its own. {@code settings} holds the variables in the order they are written, every key once.
 *
 * @param node      the node
 * @param findings  about the node's compute NICs
 * @param libraries each library's settings, in the order asked
 */
@JsonPropertyOrder({"node", "findings", "libraries"})
public record NodeEnvJson(String node, List<FindingJson> findings, List<LibraryJson> libraries) {
    /** @return the settings as indented JSON, ending with a newline */
    public static String render(NodeEnv env) {
        return JsonText.write(of(env));
    }

    /** @return the settings' JSON */
    public static NodeEnvJson of(NodeEnv env) {
        return new NodeEnvJson(env.node(), FindingJson.of(env.findings()), env.libraries().stream().map(LibraryJson::of).toList());
    }

    /**
     * One library's settings.
     *
     * @param library  the library's name ({@code nccl})
     * @param settings its variables, {@code KEY: VALUE}, in the order written
     * @param findings its own findings (a {@code setting-conflict} among them)
     */
    @JsonPropertyOrder({"library", "settings", "findings"})
    public record LibraryJson(String library, Map<String, String> settings, List<FindingJson> findings) {
        static LibraryJson of(NodeSettings s) {
            Map<String, String> settings = new LinkedHashMap<>();
            s.settings().forEach(v -> settings.put(v.key(), v.value()));
            return new LibraryJson(s.library(), Collections.unmodifiableMap(settings), FindingJson.of(s.findings()));
        }
    }
}
