package io.railmap.matrix.library;

import io.railmap.matrix.finding.Finding;
import java.util.List;
import java.util.Map;

/**
 * How one library reads its variables, to check an existing environment file against a node's cables
 * ({@code railmap check --env}). Each {@link Library} names its rules ({@link Library#envRules()});
 * libraries that read the same variables name the same rules. The check cites the library source it
 * mirrors.
 *
 * @param variables the variables checked, in the order checked
 * @param check     adds a finding only where a value would make the library misbehave on the node's cables
 */
public record EnvRules(List<String> variables, Check check) {
    /** Copies the list. */
    public EnvRules {
        variables = List.copyOf(variables);
    }

    /** One library's check of a file's variables. */
    @FunctionalInterface
    public interface Check {
        /**
         * @param node what the node has ({@link ComputeNics#of})
         * @param vars the file's variables; others than the library's are ignored
         * @param out  where the findings go, by variable
         */
        void check(NodeNics node, Map<String, String> vars, List<Finding> out);
    }
}
