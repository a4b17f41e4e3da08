package io.railmap.matrix.library;

import io.railmap.matrix.finding.Finding;
import java.util.List;

/**
 * One library's settings for one node, and what a person should know about them.
 *
 * @param library  the library's name ({@code nccl})
 * @param node     the node
 * @param settings the variables, in the order they are written
 * @param findings what is wrong or worth knowing (an error when the library would pair NICs of
 *                 different rails, or cannot be given a correct setting)
 */
public record NodeSettings(String library, String node, List<Setting> settings, List<Finding> findings) {
    /** Copies the lists. */
    public NodeSettings {
        settings = List.copyOf(settings);
        findings = List.copyOf(findings);
    }
}
