package io.railmap.matrix.library;

import io.railmap.matrix.finding.Finding;
import java.util.List;
import java.util.Map;

/**
 * How one library reads its variables, to check an existing environment file against a node's cables
 * ({@code railmap check --env}). Each {@link Library} names its rules ({@link Library#envRules()});
 * libraries that read the same variables share them. An implementation cites the library source it
 * mirrors.
 */
public interface EnvRules {
    /** @return the variables checked, in the order checked */
    List<String> variables();

    /**
     * Adds a finding only where a value would make the library misbehave on these cables.
     *
     * @param node what the node has ({@link ComputeNics#of})
     * @param vars the file's variables; others than {@link #variables()} are ignored
     * @param out  where the findings go, by variable
     */
    void check(NodeNics node, Map<String, String> vars, List<Finding> out);
}
