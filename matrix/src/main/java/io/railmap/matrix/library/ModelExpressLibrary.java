package io.railmap.matrix.library;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;

/**
 * ModelExpress ({@code mx}): which NICs its NIXL/UCX receivers use. Read from ai-dynamo/modelexpress
 * {@code modelexpress_client/python/modelexpress/ucx_utils.py} (main of August 2026), which sets
 * {@code UCX_NET_DEVICES} for each worker ({@code apply_nic_pin_for_device}) from:
 * <ul>
 * <li>{@code MX_RDMA_NIC_PIN} ({@code _resolve_nic_pin}; {@code envs.py} strips it). ModelExpress
 *     reads: empty or {@code off/0/false/no}, no pin; a value holding a comma, an explicit list (split
 *     on {@code ,}, entries stripped, empty ones dropped) <em>indexed by CUDA device</em>: device k
 *     sets {@code UCX_NET_DEVICES} to entry k alone, a device past the end is not pinned; any other
 *     value, the auto probe (one NIC per device by PCIe distance).
 *     <br>railmap writes the compute NICs as {@code hca:port} in the node's order, with a trailing
 *     comma when there is one NIC (so it is a list, not the probe), and a warning that entry k pins
 *     device k.
 *     <br>With {@link SettingsOptions#mxStripe()} it writes {@code stripe} ({@code all} reads alike,
 *     {@link #stripeMode}): builds with that mode (branch {@code kavink/multi-nic-stripe-mode},
 *     {@code _stripe_all_compute_nics}) put every HCA's port 1 at or above the floor into
 *     {@code UCX_NET_DEVICES} and raise {@code UCX_MAX_RMA_RAILS} to their count when unset; other
 *     builds read {@code stripe} as the auto probe. Since the mode takes port 1 whatever its state or
 *     role, a warning names a NIC it would take besides the compute NICs (the management NIC, a down
 *     one) or miss (on port 2, named {@code *bond*}).</li>
 * <li>{@code MX_RDMA_NIC_PIN_MIN_RATE_GBPS} ({@code _resolve_nic_pin}, {@code float()}; the probe's
 *     floor in {@code _list_compute_ib_nics}, which skips a NIC whose port-1 rate is below it, and
 *     any HCA named {@code *bond*}): the floor railmap used ({@code --min-rate-gbps}, else the
 *     fastest rate on the node), a finite decimal ≥ 0 without exponent; not written when no rate is
 *     known. The explicit list does not read it.</li>
 * <li>{@code UCX_NET_DEVICES} = every compute NIC (as {@link UcxLibrary}): what a device that the
 *     list does not pin uses; {@code UCX_MAX_RMA_RAILS} = their count with {@code stripe}, and
 *     {@code UCX_MAX_HCA_PER_GPU=inf} (several NICs): ModelExpress moves GPU memory through NIXL's
 *     UCX backend, which sets {@code auto} and so registers it only on the nearest HCAs
 *     ({@link NixlLibrary}, {@link UcxLibrary#maxHcaPerGpu}).</li>
 * </ul>
 */
public final class ModelExpressLibrary implements Library {
    @Override
    public String name() {
        return "mx";
    }

    @Override
    public EnvRules envRules() {
        return MxEnvCheck.RULES;
    }

    /** @return {@link LibraryOption#MX_STRIPE} */
    @Override
    public Set<LibraryOption> options() {
        return Set.of(LibraryOption.MX_STRIPE);
    }

    @Override
    public NodeSettings settings(NodeNics node) {
        List<Finding> findings = new ArrayList<>(node.findings());
        List<ComputeNic> nics = UcxLibrary.netDevices(node, name(), findings);
        List<Setting> settings = new ArrayList<>();
        if (nics.isEmpty()) {
            return new NodeSettings(name(), node.node(), settings, findings);
        }
        settings.add(UcxLibrary.netDevices(nics));
        if (node.options().mxStripe()) {
            settings.add(UcxLibrary.rails("UCX_MAX_RMA_RAILS", nics));
            UcxLibrary.maxHcaPerGpu(nics).ifPresent(settings::add);
            settings.add(new Setting("MX_RDMA_NIC_PIN", "stripe"));
            findings.add(new Finding(Code.SETTING_CAVEAT, Severity.INFO, List.of(), Optional.empty(),
                    "MX_RDMA_NIC_PIN=stripe works only on ModelExpress builds with the stripe mode; others read it as auto"
                            + " and pin each CUDA device to one NIC"));
            stripeDiffers(node, nics).ifPresent(findings::add);
        } else {
            settings.add(new Setting("MX_RDMA_NIC_PIN", pinList(nics)));
            findings.add(new Finding(Code.SETTING_CAVEAT, Severity.WARNING, List.of(), Optional.empty(),
                    "MX_RDMA_NIC_PIN's list is indexed by CUDA device: device k sets UCX_NET_DEVICES to entry k alone ("
                            + nics.get(0).hcaPort() + " for device 0), devices " + nics.size()
                            + " and up keep UCX_NET_DEVICES; check that device k is near entry k (nvidia-smi topo -m)"));
        }
        floor(node).ifPresent(f -> settings.add(new Setting("MX_RDMA_NIC_PIN_MIN_RATE_GBPS", decimal(f))));
        return new NodeSettings(name(), node.node(), settings, findings);
    }

    /**
     * The explicit {@code MX_RDMA_NIC_PIN} list ({@code _resolve_nic_pin} reads a value holding a
     * comma as a list indexed by CUDA device, any other as the auto probe).
     *
     * @param nics the compute NICs, in the node's order; at least one
     * @return each NIC's {@code hca:port} joined by commas ({@code mlx5_0:1,mlx5_1:1}), with a
     *         trailing comma when there is one NIC ({@code mlx5_0:1,}) so that it is still a list
     * @throws IllegalArgumentException when {@code nics} is empty
     */
    public static String pinList(List<ComputeNic> nics) {
        if (nics.isEmpty()) {
            throw new IllegalArgumentException("MX_RDMA_NIC_PIN needs at least one compute NIC to list; leave it unset when the node has none");
        }
        String pin = ComputeNic.hcaPorts(nics);
        return nics.size() == 1 ? pin + "," : pin;
    }

    /**
     * @param value {@code MX_RDMA_NIC_PIN} as the file gives it
     * @return true when the stripe branch reads it as the stripe mode ({@code _resolve_nic_pin}:
     *         {@code stripe} or {@code all}, stripped, in any case); builds without that mode read
     *         it as the auto probe
     */
    public static boolean stripeMode(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        return v.equals("stripe") || v.equals("all");
    }

    /**
     * What the stripe mode puts into {@code UCX_NET_DEVICES} ({@code _stripe_all_compute_nics},
     * {@code _list_compute_ib_nics}): port 1 of every HCA not named {@code *bond*} whose rate is
     * known and not below the floor, whatever its state or role (down, management, side fabric).
     *
     * @param node  the node, whose record in {@link NodeNics#topology()} gives the HCAs
     * @param floor the {@code MX_RDMA_NIC_PIN_MIN_RATE_GBPS} ModelExpress read, in Gb/s (NaN keeps
     *              every rate, as Python's {@code rate < nan} is false); empty for its default, the
     *              fastest rate among those HCAs
     * @return those ports, in the records' order
     * @throws NoSuchElementException when the topology has no record of the node
     */
    public static List<Port> stripePicks(NodeNics node, Optional<Double> floor) {
        List<Port> candidates = node.topology().record(node.node()).orElseThrow(() -> new NoSuchElementException(
                        "the topology has no record of node " + Names.escape(node.node()) + ": ModelExpress's stripe mode reads its HCAs"))
                .ports().stream()
                .filter(p -> p.rdma().isPresent() && p.rdmaPort() == 1 && !p.rdma().get().contains("bond") && p.rateGbps().isPresent())
                .toList();
        double threshold = floor.orElseGet(() -> candidates.stream().mapToDouble(p -> p.rateGbps().get()).max().orElse(0));
        return candidates.stream().filter(p -> !(p.rateGbps().get() < threshold)).toList();
    }

    /** @return a warning naming what the stripe mode would take besides the compute NICs, and what it would miss */
    private static Optional<Finding> stripeDiffers(NodeNics node, List<ComputeNic> nics) {
        List<String> sees = stripePicks(node, floor(node)).stream().map(p -> p.rdma().get() + ":1").distinct().toList();
        List<String> listed = nics.stream().map(ComputeNic::hcaPort).toList();
        List<String> extra = sees.stream().filter(n -> !listed.contains(n)).toList();
        List<String> missing = listed.stream().filter(n -> !sees.contains(n)).toList();
        if (extra.isEmpty() && missing.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Code.CABLE_LEFT_OUT, Severity.WARNING, List.of(), Optional.empty(),
                "MX_RDMA_NIC_PIN=stripe takes port 1 of every HCA at the floor or faster, whatever its state or role, so on "
                        + node.node() + (extra.isEmpty() ? "" : " it would also take " + String.join(",", extra))
                        + (extra.isEmpty() || missing.isEmpty() ? "" : " and") + (missing.isEmpty() ? "" : " it would miss "
                        + String.join(",", missing)) + ": leave out --mx-stripe for the explicit list"));
    }

    /** The floor used: {@code --min-rate-gbps}, else the slowest compute NIC (the fastest rate on the node). */
    private static Optional<Double> floor(NodeNics node) {
        return node.options().minRateGbps().or(() -> node.nics().stream().map(ComputeNic::port).map(Port::rateGbps)
                .flatMap(Optional::stream).min(Double::compare));
    }

    /** @return a finite rate ≥ 0 as digits with an optional fraction ({@code 400}, {@code 12.5}), which Python's float() reads back exactly */
    static String decimal(double gbps) {
        return BigDecimal.valueOf(gbps).stripTrailingZeros().toPlainString();
    }
}
