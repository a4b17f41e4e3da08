package io.railmap.daemon.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.daemon.api.QueryParams.Param;
import io.railmap.matrix.change.ChangeType;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.emit.Format;
import io.railmap.matrix.emit.Formats;
import io.railmap.matrix.emit.PlanJson;
import io.railmap.matrix.job.JobsJson;
import io.railmap.matrix.library.NodeEnvJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The API's OpenAPI 3.1 document, served at {@value #PATH}, made from the code's own lists: the route
 * table ({@link ApiVerticle#ROUTES}), each resource's declared parameters ({@link MatrixQuery#PARAMETERS},
 * {@link EnvQuery#PARAMETERS}, ...: the same lists that check a request, so their allowed values are
 * {@link Formats#ALL}'s names, {@code Libraries.ALL}'s, the orders and modes), the media types of the
 * formats, the answer records ({@link Replies}, and the core's {@link PlanJson}, {@link PlanJson.CheckJson},
 * {@link NodeEnvJson} and what they hold, through {@link JsonSchemas}: the finding codes and severities are their enums'),
 * and the event types ({@link ChangeType}). Adding a format, an option, a library, a code
 * or an event type changes the document with no other edit.
 *
 * <p>Source: OpenAPI Specification 3.1.0 (https://spec.openapis.org/oas/v3.1.0); schemas are JSON
 * Schema draft 2020-12, the dialect OpenAPI 3.1 uses. Cost: built once, when the API starts.
 *
 * <p>Errors: an {@link IllegalStateException} naming a route of the table that has no entry here (a new
 * route must say what it takes and answers).
 */
final class ApiDocument {
    /** Where the document is served. */
    static final String PATH = "/v1/openapi.json";
    /** The version of the API the document describes: the {@code /v1/} of its paths. */
    static final String API_VERSION = "1";
    /** The statuses every resource may answer with an {@link Replies.ErrorReply}, with their reasons. */
    private static final Map<Integer, String> COMMON_ERRORS = orderedMap(
            400, "a bad request: an unknown or repeated query parameter, bad percent-encoding, a malformed value or body",
            404, "an unknown resource, or unknown hosts (then \"unknown\" lists them)",
            405, "a method the resource does not take (the Allow header lists those it takes)",
            414, "a request line above 8 KB",
            417, "an Expect other than 100-continue",
            431, "request headers above 8 KB",
            500, "an internal error (no stack trace; the daemon's log has it)",
            503, "unhealthy, busy (Retry-After: 1) or too slow to answer");

    private final Map<String, ObjectNode> components = new LinkedHashMap<>();

    private ApiDocument() {
    }

    /**
     * @param routes the API's resources, as the router serves them ({@code *} at the end of a path: every
     *               path below it, documented as one path parameter)
     * @return the document
     */
    static ObjectNode of(List<ApiVerticle.Route> routes) {
        return new ApiDocument().build(routes);
    }

    /** @return the document's path for a route's: {@code /page/*} is {@code /page/{file}} */
    static String documentedPath(String routePath) {
        return routePath.endsWith("*") ? routePath.substring(0, routePath.length() - 1) + "{file}" : routePath;
    }

    private ObjectNode build(List<ApiVerticle.Route> routes) {
        ObjectNode doc = JsonText.object();
        doc.put("openapi", "3.1.0");
        ObjectNode info = doc.putObject("info");
        info.put("title", "railmapd HTTP API");
        info.put("version", API_VERSION);
        info.put("description", "The daemon's answers about the cables between nodes: records, members, agreement, matrices in "
                + "every format of railmap matrix, library settings, checks of a devices file or hostfile, and the changes as "
                + "server-sent events. Every error answer is {\"error\": sentence} JSON. Prose: docs/api.md.");
        ObjectNode paths = doc.putObject("paths");
        for (ApiVerticle.Route route : routes) {
            String path = documentedPath(route.path());
            ObjectNode item = paths.has(path) ? (ObjectNode) paths.get(path) : paths.putObject(path);
            item.set(route.method().name().toLowerCase(java.util.Locale.ROOT), operation(route));
        }
        ObjectNode schemas = doc.putObject("components").putObject("schemas");
        components.forEach(schemas::set);
        return doc;
    }

    private ObjectNode operation(ApiVerticle.Route route) {
        ObjectNode op = JsonText.object();
        String key = route.toString();
        op.put("operationId", operationId(route));
        switch (key) {
            case "GET /healthz" -> {
                op.put("summary", "whether the daemon is healthy (503 with problems when a part is stuck, or while it starts)");
                answer(op, 200, Replies.Health.class);
                ObjectNode unhealthy = response(op, 503, "unhealthy: problems lists what is stuck; or too slow to answer");
                unhealthy.putObject("content").putObject(ErrorReplies.JSON).putObject("schema").putArray("anyOf")
                        .add(JsonSchemas.ref(Replies.Health.class, components)).add(JsonSchemas.ref(Replies.ErrorReply.class, components));
            }
            case "GET /v1/record" -> {
                op.put("summary", "this node's record, as a record of the snapshot format (docs/snapshot-format.md)");
                anyJson(op, "the record", "object");
            }
            case "GET /v1/snapshot" -> {
                op.put("summary", "every record this daemon knows, as a railmap-snapshot (docs/snapshot-format.md)");
                anyJson(op, "the snapshot", "object");
            }
            case "GET /v1/members" -> {
                op.put("summary", "the cluster's members in view order, the coordinator first");
                answer(op, 200, Replies.Members.class);
            }
            case "GET /v1/agreement" -> {
                op.put("summary", "whether every member holds the records this daemon holds (503 when it runs no cluster member)");
                parameters(op, AgreementQuery.PARAMETERS);
                answer(op, 200, Replies.AgreementReply.class);
            }
            case "GET /v1/matrix" -> {
                op.put("summary", "the matrix for the hosts in any format of railmap matrix (422 when the format needs a ring and "
                        + "none passes through the hosts)");
                parameters(op, MatrixQuery.PARAMETERS);
                ObjectNode ok = response(op, 200, "the text of the format asked for");
                ObjectNode content = ok.putObject("content");
                Map<String, List<Format>> byType = Formats.ALL.stream().collect(Collectors.groupingBy(Format::mediaType,
                        LinkedHashMap::new, Collectors.toList()));
                byType.forEach((type, formats) -> content.putObject(type).set("schema", formatSchema(type, formats)));
                errors(op, Map.of(422, "no ring of cables passes through the hosts (unplaceable lists the nodes left out)"));
            }
            case "GET /v1/env" -> {
                op.put("summary", "one node's settings for the libraries asked, as railmap env writes them");
                parameters(op, EnvQuery.PARAMETERS);
                ObjectNode content = response(op, 200, "KEY=VALUE lines (format=text), or the same as JSON (format=json)").putObject("content");
                content.putObject(ApiVerticle.TEXT).putObject("schema").put("type", "string");
                content.putObject(ErrorReplies.JSON).set("schema", JsonSchemas.ref(NodeEnvJson.class, components));
            }
            case "GET /v1/events" -> {
                op.put("summary", "the changes as server-sent events, never ending; a reconnecting client sends Last-Event-ID");
                ObjectNode lastId = op.putArray("parameters").addObject();
                lastId.put("name", "Last-Event-ID").put("in", "header").put("required", false)
                        .put("description", "BOOT-SEQ of the last event read: the held events after it come first");
                lastId.putObject("schema").put("type", "string");
                ObjectNode stream = response(op, 200, "text/event-stream: per event the lines id: BOOT-SEQ, event: TYPE and data: "
                        + "one line of EventData JSON; a : keep-alive comment every 15 s").putObject("content").putObject("text/event-stream");
                stream.putObject("schema").put("type", "string");
                ObjectNode data = JsonSchemas.ref(Replies.EventData.class, components);
                stream.set("x-railmap-event-data", data);
                ArrayNode types = ((ObjectNode) components.get("EventData").get("properties").get("type")).putArray("enum");
                Stream.concat(Stream.of(ChangeType.values()).map(ChangeType::externalName), Stream.of("missed")).forEach(types::add);
            }
            case "GET /v1/jobs" -> {
                op.put("summary", "the collective jobs running on the nodes (the ranks their records publish), each checked against "
                        + "the cables as they are now: one verdict and the findings per job (docs/check.md, Running jobs)");
                answer(op, 200, JobsJson.class);
            }
            case "GET /v1/topology.svg" -> {
                op.put("summary", "the picture of the cables, as railmap draw writes it");
                response(op, 200, "SVG").putObject("content").putObject(ApiVerticle.SVG).putObject("schema").put("type", "string");
            }
            case "POST /v1/check" -> {
                op.put("summary", "checks a jaccl devices file or an mlx.launch hostfile against the cables; the findings of railmap check "
                        + "--json");
                parameters(op, CheckQuery.PARAMETERS);
                ObjectNode body = op.putObject("requestBody");
                body.put("required", true);
                body.put("description", "a jaccl devices file, or an mlx.launch hostfile, as it is: strict UTF-8, at most 1 MiB; "
                        + "not a form (415)");
                body.putObject("content").putObject(ErrorReplies.JSON).putObject("schema");
                answer(op, 200, PlanJson.CheckJson.class);
                errors(op, orderedMap(413, "a body above 1 MiB", 415, "a form or multipart body"));
            }
            case "GET /metrics" -> {
                op.put("summary", "Prometheus text: railmap_* and Vert.x HTTP metrics");
                response(op, 200, "Prometheus text format 0.0.4").putObject("content").putObject(ApiVerticle.PROMETHEUS)
                        .putObject("schema").put("type", "string");
            }
            case "GET " + PATH -> {
                op.put("summary", "this document");
                anyJson(op, "OpenAPI 3.1", "object");
            }
            case "GET /" -> {
                op.put("summary", "the topology page (HTML; its script and style under /page/, d3 under /webjars/)");
                response(op, 200, "the page").putObject("content").putObject("text/html").putObject("schema").put("type", "string");
            }
            case "GET /page/*", "GET /webjars/*" -> {
                op.put("summary", "a file of the topology page (" + route.path() + "; the path may go on below it)");
                ObjectNode file = op.putArray("parameters").addObject();
                file.put("name", "file").put("in", "path").put("required", true).put("description", "the file's name");
                file.putObject("schema").put("type", "string");
                response(op, 200, "the file").putObject("content").putObject("*/*").putObject("schema");
            }
            default -> throw new IllegalStateException("route " + key + " has no entry in ApiDocument: say what it takes and answers");
        }
        if (!op.has("parameters") && !route.path().endsWith("*")) {
            op.putObject("x-railmap-query").put("description", "takes no query parameters: any is 400");
        }
        errors(op, Map.of());
        return op;
    }

    /** @return e.g. {@code getV1Matrix}, {@code getPageFile} */
    private static String operationId(ApiVerticle.Route route) {
        StringBuilder out = new StringBuilder(route.method().name().toLowerCase(java.util.Locale.ROOT));
        String path = route.path().equals("/") ? "/page" : documentedPath(route.path()).replace("{file}", "file");
        for (String part : path.split("[/._-]")) {
            if (!part.isEmpty()) {
                out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return out.toString();
    }

    private static void parameters(ObjectNode op, List<Param> params) {
        ArrayNode list = op.putArray("parameters");
        for (Param p : params) {
            ObjectNode o = list.addObject();
            o.put("name", p.name()).put("in", "query").put("required", p.required()).put("description", p.description());
            ObjectNode value = JsonText.object();
            value.put("type", p.kind().schemaType());
            if (!p.allowed().isEmpty()) {
                ArrayNode allowed = value.putArray("enum");
                p.allowed().forEach(allowed::add);
            }
            if (p.repeatable()) {
                ObjectNode array = o.putObject("schema");
                array.put("type", "array");
                array.set("items", value);
                o.put("style", "form").put("explode", true);
            } else {
                o.set("schema", value);
            }
        }
    }

    private void answer(ObjectNode op, int status, Class<?> record) {
        response(op, status, record.getSimpleName()).putObject("content").putObject(ErrorReplies.JSON)
                .set("schema", JsonSchemas.ref(record, components));
    }

    private static void anyJson(ObjectNode op, String description, String type) {
        response(op, 200, description).putObject("content").putObject(ErrorReplies.JSON).putObject("schema").put("type", type);
    }

    private static ObjectNode response(ObjectNode op, int status, String description) {
        ObjectNode responses = op.has("responses") ? (ObjectNode) op.get("responses") : op.putObject("responses");
        ObjectNode r = responses.putObject(Integer.toString(status));
        r.put("description", description);
        return r;
    }

    /** Adds the common error answers and {@code more}, each an ErrorReply, where the operation has none for that status yet. */
    private void errors(ObjectNode op, Map<Integer, String> more) {
        ObjectNode responses = op.has("responses") ? (ObjectNode) op.get("responses") : op.putObject("responses");
        Consumer<Map.Entry<Integer, String>> add = e -> {
            String status = Integer.toString(e.getKey());
            if (!responses.has(status)) {
                ObjectNode r = responses.putObject(status);
                r.put("description", e.getValue());
                r.putObject("content").putObject(ErrorReplies.JSON).set("schema", JsonSchemas.ref(Replies.ErrorReply.class, components));
            }
        };
        more.entrySet().forEach(add);
        COMMON_ERRORS.entrySet().forEach(add);
    }

    /**
     * @return the schema of one media type of {@code GET /v1/matrix}: text for a text type; for JSON, the
     *         record each format that writes railmap's own JSON is written from ({@link Format#jsonRecord()}),
     *         any of them, or the file of another tool's format
     */
    private ObjectNode formatSchema(String type, List<Format> formats) {
        ObjectNode schema = JsonText.object();
        if (!type.equals(ErrorReplies.JSON)) {
            schema.put("type", "string");
        }
        schema.put("description", "the formats " + formats.stream().map(Format::name).collect(Collectors.joining(", ")));
        List<Format> records = formats.stream().filter(f -> f.jsonRecord().isPresent()).toList();
        if (!records.isEmpty()) {
            ArrayNode anyOf = schema.putArray("anyOf");
            records.forEach(f -> anyOf.add(JsonSchemas.ref(f.jsonRecord().get(), components).put("description", "format=" + f.name())));
            List<String> others = formats.stream().filter(f -> f.jsonRecord().isEmpty()).map(Format::name).toList();
            if (!others.isEmpty()) {
                anyOf.addObject().put("description", "format=" + String.join(", ", others) + ": the file that format's own tool reads "
                        + "(docs/cli.md, railmap matrix)");
            }
        }
        return schema;
    }

    @SuppressWarnings("unchecked")
    private static <K, V> Map<K, V> orderedMap(Object... keysAndValues) {
        Map<K, V> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            out.put((K) keysAndValues[i], (V) keysAndValues[i + 1]);
        }
        return out;
    }
}
