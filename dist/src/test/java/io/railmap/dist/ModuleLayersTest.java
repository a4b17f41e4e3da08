package io.railmap.dist;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No module's main code imports a module above it, in the order of the root pom's modules: matrix
 * &lt; process &lt; lab &lt; discovery &lt; options &lt; daemon &lt; cli &lt; bench. dist sees every
 * module but bench on its test classpath, so the rule runs here.
 *
 * <p>Maven already keeps a module's main code to its main-scope dependencies and refuses a cycle
 * between modules, so today's poms (every such dependency pointing down) guarantee the rule. What
 * Maven cannot see is the order itself: a new dependency pointing up that closes no cycle (lab on
 * discovery, discovery on daemon) compiles. This test fails then.
 */
class ModuleLayersTest {
    /** The modules' root packages, lowest first. */
    private static final List<String> LAYERS = List.of("matrix", "process", "lab", "discovery", "options", "daemon", "cli", "bench");

    @Test
    void noModuleImportsOneAbove() {
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(LAYERS.stream().map(m -> "io.railmap." + m).toArray(String[]::new));
        LAYERS.stream().filter(m -> !m.equals("bench")).forEach(m ->
                assertThat(main.containPackage("io.railmap." + m)).as("%s's classes on the test classpath", m).isTrue());
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < LAYERS.size() - 1; i++) {
            String[] above = LAYERS.subList(i + 1, LAYERS.size()).stream().map(m -> "io.railmap." + m + "..").toArray(String[]::new);
            failures.addAll(noClasses().that().resideInAPackage("io.railmap." + LAYERS.get(i) + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(above).evaluate(main).getFailureReport().getDetails());
        }
        assertThat(failures).isEmpty();
    }
}
