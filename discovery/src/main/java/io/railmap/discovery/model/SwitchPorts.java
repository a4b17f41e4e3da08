package io.railmap.discovery.model;

import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.SwitchPort;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a {@link SwitchPortSource} read: the switch port at the far end of each local netdev it could
 * tell, the InfiniBand fabric's facts for InfiniBand ports (their HCA's node GUID, and the HCA port at
 * the far end of a back-to-back cable), and notes on what it read but could not use.
 *
 * @param byNetdev the switch port per local netdev name; a netdev it cannot tell is absent
 * @param infiniband the InfiniBand facts per local netdev name; a netdev without any is absent
 * @param notes    one sentence each, naming the command and the neighbour or port concerned (a
 *                 neighbour skipped for a bad field, an interface with several neighbours); at most
 *                 {@value #MAX_NOTES}, the last saying that more were left out
 */
public record SwitchPorts(Map<String, SwitchPort> byNetdev, Map<String, Infiniband> infiniband, List<String> notes) {
    /** The most notes one reading keeps. */
    public static final int MAX_NOTES = 32;
    /** Nothing known. */
    public static final SwitchPorts NONE = new SwitchPorts(Map.of(), List.of());

    /** Copies the maps and the notes, keeping at most {@value #MAX_NOTES} notes. */
    public SwitchPorts {
        byNetdev = Map.copyOf(byNetdev);
        infiniband = Map.copyOf(infiniband);
        if (notes.size() > MAX_NOTES) {
            List<String> kept = new ArrayList<>(notes.subList(0, MAX_NOTES - 1));
            kept.add("more notes like these were left out");
            notes = kept;
        }
        notes = List.copyOf(notes);
    }

    /**
     * Switch ports only, without InfiniBand facts (LLDP).
     *
     * @param byNetdev the switch port per local netdev name
     * @param notes    as the canonical constructor
     */
    public SwitchPorts(Map<String, SwitchPort> byNetdev, List<String> notes) {
        this(byNetdev, Map.of(), notes);
    }

    /**
     * @param netdev a local netdev name
     * @return the InfiniBand facts of its port, when known
     */
    public Optional<Infiniband> infinibandOf(String netdev) {
        return Optional.ofNullable(infiniband.get(netdev));
    }

    /**
     * @param netdev a local netdev name
     * @return the switch port at its far end, when known
     */
    public Optional<SwitchPort> of(String netdev) {
        return Optional.ofNullable(byNetdev.get(netdev));
    }

    /**
     * @param others readings of other sources
     * @return all of them together; when two sources name a switch port (or InfiniBand facts) for
     *         one netdev, the first (this one) wins
     */
    public SwitchPorts and(SwitchPorts others) {
        Map<String, SwitchPort> merged = new LinkedHashMap<>(others.byNetdev);
        merged.putAll(byNetdev);
        Map<String, Infiniband> mergedInfiniband = new LinkedHashMap<>(others.infiniband);
        mergedInfiniband.putAll(infiniband);
        List<String> allNotes = new ArrayList<>(notes);
        allNotes.addAll(others.notes);
        return new SwitchPorts(merged, mergedInfiniband, allNotes);
    }
}
