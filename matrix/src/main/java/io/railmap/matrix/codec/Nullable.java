package io.railmap.matrix.codec;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a component of a JSON record (one Jackson writes, such as {@link FindingJson}) whose value may be
 * JSON {@code null}: written as {@code null}, never left out, and typed {@code ["T", "null"]} in the
 * schema the daemon's API document derives from the record. A boxed number ({@link Integer},
 * {@link Long}, {@link Double}) is nullable without it; a component left out when absent is marked
 * {@code @JsonInclude(NON_NULL)} instead.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface Nullable {
}
