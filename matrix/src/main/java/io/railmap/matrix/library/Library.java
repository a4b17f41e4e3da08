package io.railmap.matrix.library;

/**
 * One library whose settings railmap writes. An implementation cites, in its javadoc, the library's
 * source file and function each variable is read by, and mirrors that library's rules exactly
 * (syntax, defaults, limits): railmap never writes a value the library would refuse or misread.
 */
public interface Library {
    /** @return the name on the command line and in {@code /v1/env?for=}: {@code nccl}, {@code ucx}, ... */
    String name();

    /**
     * @param node what the node has: its compute NICs, their rails, the topology
     * @return the library's variables for that node, and findings
     */
    NodeSettings settings(NodeNics node);

    /**
     * @return how the library reads the variables it is set by, for {@code railmap check --env}
     *         ({@link EnvCheck}); the same rules for libraries that read the same variables
     */
    EnvRules envRules();

    /** @return the options only some libraries read that this one reads ({@link LibraryOption}); none by default */
    default java.util.Set<LibraryOption> options() {
        return java.util.Set.of();
    }
}
