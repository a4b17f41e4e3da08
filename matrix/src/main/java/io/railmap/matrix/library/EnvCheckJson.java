package io.railmap.matrix.library;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.finding.Finding;
import java.util.List;

/**
 * The check of an env file ({@link EnvCheck}) as JSON, for {@code railmap check --env FILE --json}; written by
 * Jackson in this order:
 *
 * <pre>
 * {"file": "gpu-01.env", "node": "gpu-01", "checked": ["NCCL_IB_HCA", ...], "errors": 1, "findings": [finding, ...]}
 * </pre>
 *
 * @param file     the file's name, as given (escaped)
 * @param node     the node it is checked for
 * @param checked  the variables of {@link EnvCheck#VARIABLES} it sets, in that order; empty when none
 * @param errors   how many findings are errors
 * @param findings the file's own findings ({@link EnvFile}), then the checks'
 */
@JsonPropertyOrder({"file", "node", "checked", "errors", "findings"})
public record EnvCheckJson(String file, String node, List<String> checked, long errors, List<FindingJson> findings) {
    /** @return the check as indented JSON, ending with a newline */
    public static String render(String file, String node, List<String> checked, List<Finding> findings) {
        return JsonText.write(of(file, node, checked, findings));
    }

    /** @return the check's JSON */
    public static EnvCheckJson of(String file, String node, List<String> checked, List<Finding> findings) {
        return new EnvCheckJson(file, node, List.copyOf(checked), findings.stream().filter(Finding::isError).count(),
                FindingJson.of(findings));
    }
}
