package io.railmap.cli;

import io.railmap.lab.Schemathesis;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs the API fuzz test only where schemathesis' pinned environment can be made ({@code bin/schemathesis-venv});
 * elsewhere it is skipped with the reason. With {@value #REQUIRED_VARIABLE}{@code =required} (or
 * {@code RAILMAP_MLX_TESTS=required}: both need python3-venv and PyPI) in the environment, as {@code .ci/run} sets
 * when root, a missing schemathesis fails the test instead.
 */
public final class ApiFuzzAvailable implements ExecutionCondition {
    /** Set to {@code required}, a missing schemathesis fails the fuzz test rather than skipping it. */
    static final String REQUIRED_VARIABLE = "RAILMAP_API_FUZZ";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<String> why = Schemathesis.RUNTIME.unavailable();
        if (why.isEmpty()) {
            return ConditionEvaluationResult.enabled("schemathesis runs here: " + Schemathesis.command());
        }
        if ("required".equals(System.getenv(REQUIRED_VARIABLE)) || "required".equals(System.getenv(MlxAvailable.REQUIRED_VARIABLE))) {
            throw new AssertionError("the API fuzz test is required here (" + REQUIRED_VARIABLE + " or " + MlxAvailable.REQUIRED_VARIABLE
                    + " is required) but schemathesis cannot run: " + why.get());
        }
        System.err.println("API fuzz test skipped: " + why.get());
        return ConditionEvaluationResult.disabled("API fuzz test skipped: " + why.get());
    }
}
