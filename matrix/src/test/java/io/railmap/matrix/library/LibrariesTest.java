package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@link Libraries#ALL} is the one list: the env checks derive from it and miss no library or rule set. */
class LibrariesTest {
    @Test
    void everyLibraryNamesItsEnvRules() {
        assertThat(Libraries.ALL).allSatisfy(l -> assertThat(l.envRules()).as(l.name()).isNotNull());
        assertThat(EnvCheck.RULES).containsExactlyElementsOf(Libraries.ALL.stream().map(Library::envRules).distinct().toList());
        assertThat(EnvCheck.VARIABLES).doesNotHaveDuplicates()
                .containsExactlyElementsOf(EnvCheck.RULES.stream().flatMap(r -> r.variables().stream()).toList());
    }

    /** A rule set written but named by no registered library would never run. */
    @Test
    void everyEnvRulesClassIsARegisteredLibrarys() {
        Set<String> written = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.railmap.matrix").stream().filter(c -> !c.isInterface() && c.isAssignableTo(EnvRules.class))
                .map(JavaClass::getName).collect(Collectors.toSet());
        assertThat(EnvCheck.RULES.stream().map(r -> r.getClass().getName()).collect(Collectors.toSet())).isEqualTo(written);
    }

    @Test
    void everyLibraryHasItsOwnName() {
        assertThat(Libraries.ALL.stream().map(Library::name)).doesNotHaveDuplicates();
    }
}
