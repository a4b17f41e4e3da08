package io.railmap.matrix.emit;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@link Formats#ALL} is the one list of formats: a format written but not registered fails here. */
class FormatsTest {
    @Test
    void everyFormatIsRegistered() {
        Set<String> written = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.railmap.matrix").stream()
                .filter(c -> !c.isInterface() && !c.getModifiers().contains(JavaModifier.ABSTRACT)
                        && c.isAssignableTo(Format.class))
                .map(JavaClass::getName).collect(Collectors.toSet());
        assertThat(Formats.ALL.stream().map(f -> f.getClass().getName()).collect(Collectors.toSet())).isEqualTo(written);
        assertThat(Formats.names()).doesNotHaveDuplicates();
    }
}
