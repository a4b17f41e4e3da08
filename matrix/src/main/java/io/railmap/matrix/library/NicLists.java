package io.railmap.matrix.library;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which compute NICs a library's comma-separated device list can name. Every library here splits
 * its list on {@code ,}, most on {@code :} too, UCX expands {@code [a-b]} ranges and negates a list
 * that starts with {@code ^}, NVSHMEM copies a name into 64 bytes: so a NIC is listed only when its
 * RDMA device name is 1 to 63 of {@code [A-Za-z0-9_.-]} (the kernel's own bound is 63,
 * {@code IB_DEVICE_NAME_MAX}), and a list holds at most the library's maximum.
 */
final class NicLists {
    /** An RDMA device name no library's list syntax can misread. */
    private static final Pattern LISTABLE = Pattern.compile("[A-Za-z0-9_.-]{1,63}");

    private NicLists() {
    }

    /**
     * @param node     the node's compute NICs
     * @param library  the library's name, for messages
     * @param max      the most NICs the library takes in its list
     * @param limit    where that maximum comes from, for messages ({@code UCP_MAX_LANES in ucp_types.h})
     * @param findings receives an error per NIC whose name a list cannot carry, and a warning naming
     *                 the NICs beyond {@code max}
     * @return the NICs to list, in the node's order
     */
    static List<ComputeNic> listable(NodeNics node, String library, int max, String limit, List<Finding> findings) {
        List<ComputeNic> out = new ArrayList<>();
        List<String> over = new ArrayList<>();
        for (ComputeNic nic : node.nics()) {
            if (!LISTABLE.matcher(nic.hca()).matches()) {
                findings.add(new Finding(Code.UNLISTABLE_NAME, Severity.ERROR, List.of(), nic.rail(), List.of(nic.port().ref()),
                        nic.port().ref() + ": RDMA device \"" + Names.escape(nic.hca()) + "\" is left out of " + library
                                + "'s device list: a name there must be 1 to 63 of A-Z a-z 0-9 _ . - (rename the device or list it by hand)"));
            } else if (out.size() < max) {
                out.add(nic);
            } else {
                over.add(nic.hcaPort());
            }
        }
        if (!over.isEmpty()) {
            findings.add(new Finding(Code.LIST_LIMIT, Severity.WARNING, List.of(), Optional.empty(),
                    node.node() + " has " + (max + over.size()) + " compute NICs, " + library + " takes at most " + max + " (" + limit
                            + "): " + String.join(",", over) + " left out"));
        }
        return out;
    }
}
