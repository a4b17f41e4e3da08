package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.lang.reflect.Field;
import java.util.List;
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

    /** Rules written (a static {@link EnvRules} field) but named by no registered library would never run. */
    @Test
    void everyEnvRulesFieldIsNamedByALibrary() throws ReflectiveOperationException {
        List<JavaField> written = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.railmap.matrix").stream().flatMap(c -> c.getFields().stream())
                .filter(f -> f.getModifiers().contains(JavaModifier.STATIC) && f.getRawType().isEquivalentTo(EnvRules.class)).toList();
        assertThat(written).isNotEmpty();
        for (JavaField f : written) {
            Field field = f.reflect();
            field.setAccessible(true);
            assertThat(EnvCheck.RULES).as(f.getFullName()).contains((EnvRules) field.get(null));
        }
    }

    @Test
    void everyLibraryHasItsOwnName() {
        assertThat(Libraries.ALL.stream().map(Library::name)).doesNotHaveDuplicates();
    }
}
