package io.railmap.daemon.testing;

import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class only where {@link NetnsLab} can make network namespaces; elsewhere the class
 * is reported as skipped, with the reason.
 */
public final class NamespacesAvailable implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<String> why = NetnsLab.unavailable();
        if (why.isPresent()) {
            System.err.println("namespace suite skipped: " + why.get());
            return ConditionEvaluationResult.disabled("namespace suite skipped: " + why.get());
        }
        return ConditionEvaluationResult.enabled("network namespaces can be made here");
    }
}
