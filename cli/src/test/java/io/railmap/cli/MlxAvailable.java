package io.railmap.cli;

import io.railmap.lab.MlxRuntime;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class only where MLX's pinned runtime can be made ({@link MlxRuntime}, {@code bin/mlx-venv});
 * elsewhere the class is skipped with the reason. With {@value #REQUIRED_VARIABLE}{@code =required} in
 * the environment ({@code .ci/run} sets it when root, where it installs python3-venv) a missing runtime
 * fails the class instead.
 */
public final class MlxAvailable implements ExecutionCondition {
    /** Set to {@code required}, a missing MLX runtime fails the MLX tests rather than skipping them. */
    static final String REQUIRED_VARIABLE = "RAILMAP_MLX_TESTS";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<String> why = MlxRuntime.unavailable();
        if (why.isEmpty()) {
            return ConditionEvaluationResult.enabled("MLX runs here: " + MlxRuntime.python());
        }
        if ("required".equals(System.getenv(REQUIRED_VARIABLE))) {
            throw new AssertionError("the MLX tests are required here (" + REQUIRED_VARIABLE + "=required) but MLX cannot run: " + why.get());
        }
        System.err.println("MLX tests skipped: " + why.get());
        return ConditionEvaluationResult.disabled("MLX tests skipped: " + why.get());
    }
}
