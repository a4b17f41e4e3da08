package io.railmap.matrix.change;

import java.util.List;
import java.util.Objects;

/**
 * One change.
 *
 * @param type     what changed
 * @param subjects what it concerns, in the field's terms: a cable's two ends ({@code node:port}), a
 *                 port ({@code node:port}), a node, a record id ({@code node@version.hash}), a
 *                 finding's code followed by its ports ({@code cross-rail}, {@code g1:eth2}), or the
 *                 records' digest ({@code sha256:…})
 * @param message  one sentence for a person, e.g. {@code "cable a:en6–b:en7 lost"}
 */
public record Change(ChangeType type, List<String> subjects, String message) {
    /** Copies the list. */
    public Change {
        Objects.requireNonNull(type, "type");
        subjects = List.copyOf(subjects);
        Objects.requireNonNull(message, "message");
    }
}
