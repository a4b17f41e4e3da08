package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.daemon.api.QueryParams.Kind;
import io.railmap.daemon.api.QueryParams.Param;
import io.vertx.core.MultiMap;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one set of readers of query values, and the rule on declared parameters. */
class QueryParamsTest {
    private static MultiMap params(String... namesAndValues) {
        MultiMap out = MultiMap.caseInsensitiveMultiMap();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            out.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return out;
    }

    @Test
    void booleansAreTrueOrFalseAndNothingElse() {
        assertThat(QueryParams.bool(params(), "x", true)).isTrue();
        assertThat(QueryParams.bool(params("x", "false"), "x", true)).isFalse();
        assertThatThrownBy(() -> QueryParams.bool(params("x", "TRUE"), "x", false)).hasMessage("x \"TRUE\" is neither true nor false");
        assertThatThrownBy(() -> QueryParams.bool(params("x", "1\n"), "x", false)).hasMessage("x \"1\\n\" is neither true nor false");
    }

    @Test
    void numbersAndWholeNumbersNameTheParameterAndQuoteTheValue() {
        assertThat(QueryParams.number(params("r", "2.5"), "r")).contains(2.5);
        assertThat(QueryParams.number(params(), "r")).isEmpty();
        assertThatThrownBy(() -> QueryParams.number(params("r", "fast"), "r")).hasMessage("r \"fast\" is not a number");
        assertThat(QueryParams.integer(params("k", "-3"), "k")).isEqualTo(Optional.of(-3));
        assertThatThrownBy(() -> QueryParams.integer(params("k", "2147483648"), "k")).hasMessage("k \"2147483648\" is not a whole number");
        assertThatThrownBy(() -> QueryParams.integer(params("k", "1.0"), "k")).hasMessage("k \"1.0\" is not a whole number");
    }

    @Test
    void onlyDeclaredParametersAndOnlyRepeatableOnesTwice() {
        List<Param> declared = List.of(Param.optional("a", Kind.STRING, "a"), Param.optional("ip", Kind.STRING, "ip").asRepeatable());
        QueryParams.requireKnown(params("a", "1", "ip", "x", "ip", "y"), declared);
        assertThatThrownBy(() -> QueryParams.requireKnown(params("b", "1"), declared)).hasMessage("unknown query parameter \"b\" (known: a, ip)");
        assertThatThrownBy(() -> QueryParams.requireKnown(params("a", "1", "a", "2"), declared))
                .hasMessage("query parameter \"a\" is given more than once");
        assertThatThrownBy(() -> QueryParams.required(params(), "node", "/v1/env?node=g1&for=nccl"))
                .hasMessage("node is missing: e.g. /v1/env?node=g1&for=nccl");
    }
}
