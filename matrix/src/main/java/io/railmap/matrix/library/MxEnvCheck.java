package io.railmap.matrix.library;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.Port;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * ModelExpress's variables railmap writes ({@link ModelExpressLibrary}), read as {@code ucx_utils.py}
 * reads them (ai-dynamo/modelexpress, main, and branch {@code kavink/multi-nic-stripe-mode} for the
 * stripe mode).
 */
final class MxEnvCheck {
    static final List<String> VARIABLES = List.of("MX_RDMA_NIC_PIN", "MX_RDMA_NIC_PIN_MIN_RATE_GBPS");
    /** The rules the libraries that read these variables name. */
    static final EnvRules RULES = new EnvRules(VARIABLES, MxEnvCheck::check);
    private static final Pattern PY_FLOAT = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final Pattern PY_NONFINITE = Pattern.compile("[+-]?(nan|inf|infinity)", Pattern.CASE_INSENSITIVE);

    private MxEnvCheck() {
    }

    static void check(NodeNics node, Map<String, String> vars, List<Finding> out) {
        Optional.ofNullable(vars.get("MX_RDMA_NIC_PIN")).ifPresent(v -> pin(node, v.strip(), vars, out));
        Optional.ofNullable(vars.get("MX_RDMA_NIC_PIN_MIN_RATE_GBPS")).ifPresent(v -> rate(v, out));
    }

    /**
     * {@code MX_RDMA_NIC_PIN} ({@code _resolve_nic_pin}): the stripe mode ({@link #stripe}); else a
     * list when it holds a comma, entries stripped, as UCX entries; else the auto probe (not checked).
     */
    private static void pin(NodeNics node, String value, Map<String, String> vars, List<Finding> out) {
        if (ModelExpressLibrary.stripeMode(value)) {
            stripe(node, value, vars, out);
            return;
        }
        if (!value.contains(",")) {
            return;
        }
        for (String entry : value.split(",", -1)) {
            if (!entry.strip().isEmpty()) {
                UcxEnvCheck.devices(node, "MX_RDMA_NIC_PIN", entry.strip(), out);
            }
        }
    }

    /**
     * The stripe mode ({@code _stripe_all_compute_nics}) replaces {@code UCX_NET_DEVICES} with port 1
     * of every HCA at the floor or faster ({@link ModelExpressLibrary#stripePicks}), whatever its
     * state or role: each port it takes that is not a compute NIC is the error a list naming it gets
     * (down, management, slower side NIC); compute NICs it misses (port 2, {@code *bond*}, rate
     * unknown or below the file's floor) a {@link Code#CABLE_LEFT_OUT} warning.
     */
    private static void stripe(NodeNics node, String value, Map<String, String> vars, List<Finding> out) {
        Optional<Double> floor = floor(vars);
        List<Port> picks = ModelExpressLibrary.stripePicks(node, floor);
        String mode = "MX_RDMA_NIC_PIN=" + value + " (the stripe mode) takes port 1 of every HCA at "
                + floor.map(f -> f + " Gb/s (MX_RDMA_NIC_PIN_MIN_RATE_GBPS)").orElse("the fastest rate present") + " or faster, whatever its"
                + " state or role, so on " + node.node() + " it takes ";
        String remedy = node.nics().isEmpty() ? "leave MX_RDMA_NIC_PIN unset: " + node.node() + " has no compute NIC"
                : "write the explicit list MX_RDMA_NIC_PIN=" + ModelExpressLibrary.pinList(node.nics())
                + " (railmap env --for mx)";
        List<ComputeNic> taken = new ArrayList<>();
        for (Port p : picks) {
            ListedPorts.judged(node, p, mode + p.rdma().get() + ":1 (" + p.ref() + ")", Optional.of(remedy), out).ifPresent(taken::add);
        }
        List<ComputeNic> missed = node.nics().stream().filter(n -> !taken.contains(n)).toList();
        if (!missed.isEmpty()) {
            out.add(ListedPorts.warning(Code.CABLE_LEFT_OUT, missed.stream().map(n -> n.port().ref()).toList(), mode
                    + (taken.isEmpty() ? "no compute NIC" : "only " + ComputeNic.hcaPorts(taken)) + " and misses " + missed.stream()
                    .map(n -> n.hcaPort() + " (" + n.port().ref() + ")").collect(Collectors.joining(", "))
                    + " (port 2, an HCA named *bond*, a rate unknown or below the floor)" + (picks.isEmpty() ? ": with none at all it"
                    + " leaves UCX_NET_DEVICES as it is" : ": its transfers stripe over fewer NICs") + "; " + remedy));
        }
    }

    /**
     * @return the compute NICs the stripe mode gives UCX, when {@code MX_RDMA_NIC_PIN} is that mode;
     *         empty otherwise
     */
    static Optional<List<ComputeNic>> striped(NodeNics node, Map<String, String> vars) {
        return Optional.ofNullable(vars.get("MX_RDMA_NIC_PIN")).filter(ModelExpressLibrary::stripeMode)
                .map(v -> ModelExpressLibrary.stripePicks(node, floor(vars)).stream()
                        .flatMap(p -> node.nics().stream().filter(n -> n.port().ref().equals(p.ref()))).toList());
    }

    /**
     * @return the floor the stripe mode reads ({@code _resolve_nic_pin}): {@code float()} of
     *         {@code MX_RDMA_NIC_PIN_MIN_RATE_GBPS}; empty when unset, blank or not a number Python
     *         reads (ModelExpress then logs a warning and takes the fastest rate present)
     */
    private static Optional<Double> floor(Map<String, String> vars) {
        return Optional.ofNullable(vars.get("MX_RDMA_NIC_PIN_MIN_RATE_GBPS")).map(String::strip).flatMap(MxEnvCheck::pyFloat);
    }

    /** @return what Python's {@code float()} reads from a stripped value (NaN and infinities too), empty when it raises */
    private static Optional<Double> pyFloat(String v) {
        if (PY_NONFINITE.matcher(v).matches()) {
            boolean negative = v.startsWith("-");
            return Optional.of(v.toLowerCase(java.util.Locale.ROOT).contains("nan") ? Double.NaN
                    : negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
        }
        return PY_FLOAT.matcher(v).matches() ? Optional.of(Double.parseDouble(v)) : Optional.empty();
    }

    /** {@code MX_RDMA_NIC_PIN_MIN_RATE_GBPS}, as Python's {@code float()}: a finite number ≥ 0. */
    private static void rate(String value, List<Finding> out) {
        Optional<Double> read = pyFloat(value.strip());
        String why = read.isEmpty() ? "is not a number Python's float() reads"
                : read.get().isNaN() || read.get().isInfinite() ? "is not a finite number" : read.get() < 0 ? "is negative" : null;
        if (why != null) {
            out.add(ListedPorts.error(Code.BAD_SETTING, "MX_RDMA_NIC_PIN_MIN_RATE_GBPS " + ListedPorts.quoted(value) + " " + why
                    + ": ModelExpress compares each NIC's rate with it; give a rate in Gb/s ≥ 0, such as 400"));
        }
    }
}
