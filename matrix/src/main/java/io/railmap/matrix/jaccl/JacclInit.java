package io.railmap.matrix.jaccl;

import java.util.Optional;

/**
 * What jaccl's {@code init} does with a devices file: the group it builds, and why it would refuse
 * or misbehave. Computed by {@link JacclRules#init}.
 *
 * @param mode    the group jaccl chooses; empty when the file is valid as neither
 * @param failure why jaccl would refuse, throw or misbehave with this file, as a sentence fragment
 *                ("the mesh takes at most 8 ranks"); empty when it runs
 */
public record JacclInit(Optional<JacclMode> mode, Optional<String> failure) {
    /** @return true when jaccl builds a group and it runs */
    public boolean runs() {
        return mode.isPresent() && failure.isEmpty();
    }

    /** @return true when jaccl builds this group and it runs */
    public boolean runs(JacclMode wanted) {
        return runs() && mode.get() == wanted;
    }
}
