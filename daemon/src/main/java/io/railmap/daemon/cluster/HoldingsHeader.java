package io.railmap.daemon.cluster;

import java.io.DataInput;
import java.io.DataOutput;
import java.util.function.Supplier;
import org.jgroups.Header;
import org.jgroups.conf.ClassConfigurator;

/**
 * Marks a holdings message ({@link Holdings}): a JGroups header with no contents, so that telling a
 * holdings message from a record message never depends on the record format. Public only because
 * JGroups makes its headers by reflection.
 */
public final class HoldingsHeader extends Header {
    /** The header's magic number (custom ones start at 1024) and the id it is put under. */
    static final short ID = 3101;

    static {
        ClassConfigurator.addIfAbsent(ID, HoldingsHeader.class);
    }

    /** For JGroups, which makes headers by reflection. */
    public HoldingsHeader() {
        // a marker: nothing to set
    }

    /** Registers the header with JGroups; call before a channel is made. */
    static void register() {
        // the static initialiser did it
    }

    @Override
    public short getMagicId() {
        return ID;
    }

    @Override
    public Supplier<? extends Header> create() {
        return HoldingsHeader::new;
    }

    @Override
    public int serializedSize() {
        return 0;
    }

    @Override
    public void writeTo(DataOutput out) {
        // a marker: nothing to write
    }

    @Override
    public void readFrom(DataInput in) {
        // a marker: nothing to read
    }
}
