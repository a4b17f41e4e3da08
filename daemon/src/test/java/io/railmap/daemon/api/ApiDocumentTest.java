package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.change.ChangeType;
import io.railmap.matrix.emit.Format;
import io.railmap.matrix.emit.FormatOption;
import io.railmap.matrix.emit.Formats;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.library.Libraries;
import io.railmap.matrix.library.Library;
import io.railmap.matrix.library.LibraryOption;
import io.railmap.matrix.library.NodeEnv;
import io.railmap.matrix.library.NodeEnvJson;
import io.railmap.matrix.library.SettingsOptions;
import io.railmap.matrix.check.CheckOptions;
import io.railmap.matrix.check.CheckReport;
import io.railmap.matrix.check.FileCheck;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.emit.PlanJson;
import io.railmap.matrix.emit.RailTableJson;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.SchemaRepository;
import io.vertx.openapi.contract.OpenAPIVersion;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/openapi.json}: valid OpenAPI 3.1, made from the registries (every format, option,
 * library, code and event type is in it), and describing exactly the routes the router serves.
 */
class ApiDocumentTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static ApiOnLoopback api;
    private static JsonNode served;

    @BeforeAll
    static void start() throws Exception {
        api = ApiOnLoopback.start("api-doc-test", new Engine("a"), List.of());
        var answer = api.get(ApiDocument.PATH);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.getHeader("content-type")).isEqualTo("application/json");
        served = JSON.readTree(answer.bodyAsString());
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static JsonNode parameter(String path, String method, String name) {
        for (JsonNode p : served.get("paths").get(path).get(method).get("parameters")) {
            if (p.get("name").asText().equals(name)) {
                return p;
            }
        }
        throw new AssertionError(method + " " + path + " has no parameter " + name);
    }

    @Test
    void theDocumentIsValidOpenApi31() throws Exception {
        assertThat(served.get("openapi").asText()).isEqualTo("3.1.0");
        assertThat(validate(served).getValid()).as("%s", validate(served)).isTrue();
        // the check has teeth: a document without its info, or with a parameter in a place OpenAPI does not know, is not valid
        ObjectNode broken = served.deepCopy();
        broken.remove("info");
        assertThat(validate(broken).getValid()).isFalse();
        ObjectNode badIn = served.deepCopy();
        ((ObjectNode) badIn.get("paths").get("/v1/matrix").get("get").get("parameters").get(0)).put("in", "body");
        assertThat(validate(badIn).getValid()).isFalse();
    }

    /**
     * @return the document checked against OpenAPI 3.1's own JSON Schema (spec.openapis.org/oas/3.1/schema/2022-10-07,
     *         shipped in io.vertx:vertx-openapi), only for validity: vert.x's contract class also refuses media types it
     *         cannot validate requests with, which says nothing of the document
     */
    private static OutputUnit validate(JsonNode document) throws Exception {
        SchemaRepository repository = OpenAPIVersion.V3_1.getRepository(api.vertx(), "app:///").await(30, TimeUnit.SECONDS);
        return OpenAPIVersion.V3_1.validateContract(api.vertx(), repository, new JsonObject(document.toString())).await(30, TimeUnit.SECONDS);
    }

    /** Every route the router serves is documented, and every documented route is served. */
    @Test
    void theDocumentListsExactlyTheRoutesTheRouterServes() {
        Set<String> routed = new TreeSet<>();
        for (Route route : api.verticle().router().getRoutes()) {
            if (route.getPath() == null) {
                continue; // the handler every request passes first (deadlines, Keep-Alive), no resource
            }
            String path = route.isExactPath() ? route.getPath() : route.getPath() + "*";
            assertThat(route.methods()).as("methods of %s", path).isNotEmpty();
            for (HttpMethod m : route.methods()) {
                routed.add(m.name().toLowerCase(Locale.ROOT) + " " + ApiDocument.documentedPath(path));
            }
        }
        Set<String> documented = new TreeSet<>();
        served.get("paths").fields().forEachRemaining(path -> path.getValue().fieldNames()
                .forEachRemaining(method -> documented.add(method + " " + path.getKey())));
        assertThat(documented).isEqualTo(routed);
        assertThat(routed).contains("get /v1/openapi.json", "post /v1/check", "get /page/{file}");
    }

    /** One source of truth: the allowed values and parameters come from the registries, not from a second list. */
    @Test
    void everyFormatOptionLibraryCodeAndEventTypeIsInTheDocument() {
        assertThat(texts(parameter("/v1/matrix", "get", "format").get("schema").get("enum")))
                .containsExactlyElementsOf(Formats.ALL.stream().map(Format::name).toList());
        for (FormatOption option : FormatOption.values()) {
            for (String name : option.parameters()) {
                assertThat(parameter("/v1/matrix", "get", name).get("description").asText()).as(name)
                        .contains(Formats.ALL.stream().filter(f -> f.reads().contains(option)).findFirst().orElseThrow().name());
            }
        }
        assertThat(parameter("/v1/matrix", "get", "ip").get("schema").get("type").asText()).isEqualTo("array");
        for (Library library : Libraries.ALL) {
            assertThat(parameter("/v1/env", "get", "for").get("description").asText()).contains(library.name());
        }
        for (LibraryOption option : LibraryOption.values()) {
            assertThat(parameter("/v1/env", "get", option.param()).get("schema").get("type").asText()).isEqualTo("boolean");
        }
        JsonNode matrixTypes = served.get("paths").get("/v1/matrix").get("get").get("responses").get("200").get("content");
        Formats.ALL.forEach(f -> assertThat(matrixTypes.has(f.mediaType())).as(f.mediaType()).isTrue());
        JsonNode schemas = served.get("components").get("schemas");
        assertThat(texts(schemas.get("FindingJson").get("properties").get("code").get("enum")))
                .containsExactlyElementsOf(Stream.of(Code.values()).map(Code::externalName).toList());
        assertThat(texts(schemas.get("FindingJson").get("properties").get("severity").get("enum")))
                .containsExactlyElementsOf(Stream.of(Severity.values()).map(Severity::externalName).toList());
        assertThat(texts(schemas.get("EventData").get("properties").get("type").get("enum")))
                .containsAll(Stream.of(ChangeType.values()).map(ChangeType::externalName).toList()).contains("missed");
    }

    /** The answer schemas are the reply records' components, in their written order, required unless left out when absent. */
    @Test
    void answerSchemasComeFromTheReplyRecords() {
        JsonNode members = served.get("components").get("schemas").get("MemberReply");
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = members.get("properties").fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        assertThat(names).containsExactly("node", "address", "self", "coordinator", "recordVersion", "recordAgeMs");
        assertThat(texts(members.get("properties").get("recordAgeMs").get("type"))).containsExactly("integer", "null");
        assertThat(texts(members.get("properties").get("node").get("type"))).containsExactly("string", "null");
        JsonNode health = served.get("components").get("schemas").get("Health");
        assertThat(texts(health.get("required"))).containsExactly("status", "node", "recordVersion");
        assertThat(served.get("paths").get("/v1/members").get("get").get("responses").get("200").get("content").get("application/json")
                .get("schema").get("$ref").asText()).isEqualTo("#/components/schemas/Members");
    }

    /**
     * The core's JSON records ({@code railmap matrix --format json}, {@code railmap check --json}, {@code railmap env --json})
     * are the schemas of their answers: each schema's properties are its record's components in their written order, so a
     * component added to a record is in the document with no other edit; and real answers, written from the example
     * snapshots, conform to them (every object's keys the schema's, in its order, the required ones present).
     */
    @Test
    void theCoresJsonSchemasComeFromItsRecordsAndItsAnswersConform() throws Exception {
        JsonNode schemas = served.get("components").get("schemas");
        for (Class<?> record : List.of(PlanJson.class, PlanJson.CableJson.class, PlanJson.TopologyJson.class, PlanJson.CheckJson.class,
                PlanJson.HostfileJson.class, RailTableJson.class, RailTableJson.RailJson.class, RailTableJson.NicJson.class,
                NodeEnvJson.class, NodeEnvJson.LibraryJson.class, FindingJson.class)) {
            JsonNode schema = schemas.get(record.getSimpleName());
            assertThat(schema).as(record.getName()).isNotNull();
            List<String> properties = new ArrayList<>();
            schema.get("properties").fieldNames().forEachRemaining(properties::add);
            assertThat(properties).as(record.getName()).containsExactly(record.getAnnotation(JsonPropertyOrder.class).value())
                    .containsExactlyInAnyOrderElementsOf(Stream.of(record.getRecordComponents()).map(RecordComponent::getName).toList());
        }
        assertThat(texts(schemas.get("CheckJson").get("required"))).containsExactly("ranks", "mode", "mlxVersion", "errors", "findings");
        assertThat(texts(schemas.get("CheckJson").get("properties").get("mode").get("enum")))
                .containsExactlyElementsOf(Stream.of(Mode.values()).map(Mode::externalName).toList());
        assertThat(schemas.get("PlanJson").get("properties").get("mode").toString()).isEqualTo("{\"type\":[\"string\",\"null\"],"
                + "\"enum\":[\"mesh\",\"ring\",null]}");
        assertThat(schemas.get("PlanJson").get("properties").get("devices").toString()).isEqualTo("{\"type\":\"array\",\"items\":"
                + "{\"type\":\"array\",\"items\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}");
        assertThat(texts(schemas.get("NicJson").get("properties").get("rateGbps").get("type"))).containsExactly("number", "null");
        assertThat(texts(schemas.get("NicJson").get("required"))).doesNotContain("reaches");
        assertThat(served.at("/paths/~1v1~1check/post/responses/200/content/application~1json/schema/$ref").asText())
                .isEqualTo("#/components/schemas/CheckJson");
        JsonNode matrixJson = served.at("/paths/~1v1~1matrix/get/responses/200/content/application~1json/schema/anyOf");
        assertThat(matrixJson.get(0).get("$ref").asText()).isEqualTo("#/components/schemas/PlanJson");
        assertThat(matrixJson.get(0).get("description").asText()).isEqualTo("format=json");
        assertThat(matrixJson.get(1).get("description").asText()).contains("jaccl", "launch", "ring-hosts").doesNotContain("json:");
        assertThat(served.at("/paths/~1v1~1env/get/responses/200/content/application~1json/schema/$ref").asText())
                .isEqualTo("#/components/schemas/NodeEnvJson");
        assertThat(texts(schemas.get("NodeEnvJson").get("required"))).containsExactly("node", "findings", "libraries");
        assertThat(schemas.get("LibraryJson").get("properties").get("settings").toString())
                .isEqualTo("{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}");

        Path file = Path.of("../examples/snapshots/four-studios-ring-ips.json");
        Snapshot studios = SnapshotCodec.readSnapshot(file.toString(), Files.readString(file));
        Topology topology = Topology.of(studios);
        for (Order order : Order.values()) {
            conforms(JSON.readTree(PlanJson.render(Planner.plan(topology, studios.nodes(), order, RailOptions.DEFAULTS, MlxVersion.NEWEST))),
                    schemas.get("PlanJson"), "plan " + order);
        }
        CheckReport checked = FileCheck.check(studios, "hostfile.json", Files.readString(Path.of("../examples/hostfiles/four-studios-ring.json")),
                new CheckOptions(Optional.empty(), Optional.empty(), "--hosts", "--mode", MlxVersion.NEWEST));
        assertThat(checked.hostfile()).isPresent();
        conforms(JSON.readTree(PlanJson.check(checked, Optional.of(RailTable.of(topology)))), schemas.get("CheckJson"), "check");
        conforms(JSON.readTree(RailTableJson.render(RailTable.of(topology))), schemas.get("RailTableJson"), "rails");
        // GET /v1/env?format=json answers NodeEnv.json(): every library, every node of every example snapshot
        int settings = 0;
        try (Stream<Path> files = Files.list(Path.of("../examples/snapshots"))) {
            for (Path example : files.filter(p -> !p.getFileName().toString().contains("devices")).sorted().toList()) {
                Topology t = Topology.of(SnapshotCodec.readSnapshot(example.toString(), Files.readString(example)));
                for (String node : t.nodes()) {
                    for (SettingsOptions o : List.of(SettingsOptions.DEFAULTS, new SettingsOptions(Optional.of(1000.0), true))) {
                        JsonNode env = JSON.readTree(NodeEnv.of(t, node, Libraries.ALL, o).json());
                        conforms(env, served.at("/paths/~1v1~1env/get/responses/200/content/application~1json/schema"), "env " + node);
                        for (JsonNode library : env.get("libraries")) {
                            settings += library.get("settings").size();
                        }
                    }
                }
            }
        }
        assertThat(settings).as("settings conformed").isGreaterThan(100);
    }

    /** Fails unless {@code value} has the schema's shape: objects' keys its properties in order, required ones present; types agree. */
    private static void conforms(JsonNode value, JsonNode schema, String where) {
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asText().substring(JsonSchemas.REF_PREFIX.length());
            conforms(value, served.get("components").get("schemas").get(name), where);
            return;
        }
        JsonNode type = schema.get("type");
        List<String> types = type.isArray() ? texts(type) : List.of(type.asText());
        if (value.isNull()) {
            assertThat(types).as(where).contains("null");
            return;
        }
        switch (types.get(0)) {
            case "object" -> {
                assertThat(value.isObject()).as(where).isTrue();
                if (!schema.has("properties")) { // a map: its keys are data, every value of one schema
                    value.fields().forEachRemaining(e -> conforms(e.getValue(), schema.get("additionalProperties"), where + "." + e.getKey()));
                    return;
                }
                List<String> keys = new ArrayList<>();
                value.fieldNames().forEachRemaining(keys::add);
                List<String> properties = new ArrayList<>();
                schema.get("properties").fieldNames().forEachRemaining(properties::add);
                assertThat(keys).as(where).isSubsetOf(properties).containsAll(texts(schema.get("required")));
                assertThat(keys).as(where + ": in the schema's order").isEqualTo(properties.stream().filter(keys::contains).toList());
                keys.forEach(k -> conforms(value.get(k), schema.get("properties").get(k), where + "." + k));
            }
            case "array" -> {
                assertThat(value.isArray()).as(where).isTrue();
                for (int i = 0; i < value.size(); i++) {
                    conforms(value.get(i), schema.get("items"), where + "[" + i + "]");
                }
            }
            case "string" -> {
                assertThat(value.isTextual()).as(where).isTrue();
                if (schema.has("enum")) {
                    assertThat(texts(schema.get("enum"))).as(where).contains(value.asText());
                }
            }
            case "integer" -> assertThat(value.isIntegralNumber()).as(where).isTrue();
            case "number" -> assertThat(value.isNumber()).as(where).isTrue();
            case "boolean" -> assertThat(value.isBoolean()).as(where).isTrue();
            default -> throw new AssertionError(where + ": type " + types);
        }
    }

    /** A component added to a record is in its schema with no other edit: the walk reads the record, nothing else. */
    @Test
    void aComponentAddedToARecordIsInItsSchema() {
        record Before(String a, int b) {
        }
        @JsonPropertyOrder({"a", "b", "added"})
        record After(String a, int b, @io.railmap.matrix.codec.Nullable Double added) {
        }
        Map<String, ObjectNode> components = new LinkedHashMap<>();
        JsonSchemas.ref(Before.class, components);
        JsonSchemas.ref(After.class, components);
        assertThat(components.get("Before").get("properties").toString()).isEqualTo("{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"}}");
        assertThat(components.get("After").get("properties").toString()).isEqualTo("{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"},"
                + "\"added\":{\"type\":[\"number\",\"null\"]}}");
        assertThat(texts(components.get("After").get("required"))).containsExactly("a", "b", "added");
    }
}
