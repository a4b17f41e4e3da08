package io.railmap.matrix.library.check;

import io.railmap.matrix.check.Code;
import io.railmap.matrix.check.Finding;
import io.railmap.matrix.library.ModelExpressLibrary;
import io.railmap.matrix.library.NodeNics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** ModelExpress's variables railmap writes ({@link ModelExpressLibrary}), read as {@code ucx_utils.py} reads them. */
final class MxEnvCheck {
    static final List<String> VARIABLES = List.of("MX_RDMA_NIC_PIN", "MX_RDMA_NIC_PIN_MIN_RATE_GBPS");
    private static final Pattern PY_FLOAT = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final Pattern PY_NONFINITE = Pattern.compile("[+-]?(nan|inf|infinity)", Pattern.CASE_INSENSITIVE);

    private MxEnvCheck() {
    }

    static void check(NodeNics node, Map<String, String> vars, List<Finding> out) {
        Optional.ofNullable(vars.get("MX_RDMA_NIC_PIN")).ifPresent(v -> pin(node, v.strip(), out));
        Optional.ofNullable(vars.get("MX_RDMA_NIC_PIN_MIN_RATE_GBPS")).ifPresent(v -> rate(v, out));
    }

    /** {@code MX_RDMA_NIC_PIN} ({@code _resolve_nic_pin}): a list when it holds a comma, entries stripped, as UCX entries. */
    private static void pin(NodeNics node, String value, List<Finding> out) {
        if (!value.contains(",")) {
            return;
        }
        for (String entry : value.split(",", -1)) {
            if (!entry.strip().isEmpty()) {
                UcxEnvCheck.devices(node, "MX_RDMA_NIC_PIN", entry.strip(), out);
            }
        }
    }

    /** {@code MX_RDMA_NIC_PIN_MIN_RATE_GBPS}, as Python's {@code float()}: a finite number ≥ 0. */
    private static void rate(String value, List<Finding> out) {
        String v = value.strip();
        String why = PY_NONFINITE.matcher(v).matches() ? "is not a finite number"
                : !PY_FLOAT.matcher(v).matches() ? "is not a number Python's float() reads"
                : Double.parseDouble(v) < 0 ? "is negative" : Double.isInfinite(Double.parseDouble(v)) ? "is not a finite number" : null;
        if (why != null) {
            out.add(ListedPorts.error(Code.BAD_SETTING, "MX_RDMA_NIC_PIN_MIN_RATE_GBPS " + ListedPorts.quoted(value) + " " + why
                    + ": ModelExpress compares each NIC's rate with it; give a rate in Gb/s ≥ 0, such as 400"));
        }
    }
}
