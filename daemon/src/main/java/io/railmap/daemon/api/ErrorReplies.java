package io.railmap.daemon.api;

import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.plan.NoRingException;
import io.railmap.matrix.rail.UnknownNodesException;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.handler.HttpException;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every error answer of the API: {@code {"error": "<one sentence>"}} as JSON, with the status that
 * fits, plus {@code "unknown": [nodes]} on a 404 for unknown hosts and {@code "unplaceable": [nodes]}
 * on a 422 for no ring. Request text echoed in a sentence is quoted as a JSON string (control
 * characters escaped) and cut to {@value #SHOWN_CHARS} characters. An internal error (500) names
 * the exception's class only; its message goes to the log, once per class.
 */
final class ErrorReplies {
    private static final Logger LOG = System.getLogger(ErrorReplies.class.getName());
    /** The media type of every error answer. */
    static final String JSON = "application/json";
    /** Characters of request text shown in a sentence. */
    static final int SHOWN_CHARS = 80;
    /** Distinct internal-error classes logged; later ones are answered but not logged. */
    private static final int LOGGED_CLASSES = 64;
    private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

    private ErrorReplies() {
    }

    /** @return {@code {"error": sentence}} */
    static Replies.ErrorReply error(String sentence) {
        return Replies.ErrorReply.of(sentence);
    }

    /**
     * @param text request text (a path, a parameter name, a method)
     * @return it as a JSON string literal, control characters escaped, cut to {@value #SHOWN_CHARS}
     *         characters with {@code …} when longer
     */
    static String quoted(String text) {
        String s = text == null ? "" : text;
        return JsonText.quote(s.length() > SHOWN_CHARS ? s.substring(0, SHOWN_CHARS) + "…" : s);
    }

    /** Sends an error answer unless the response was already ended or its connection closed. */
    static void send(HttpServerResponse response, int status, Replies.ErrorReply body) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status).putHeader("content-type", JSON).end(Replies.write(body));
    }

    /**
     * @param e why a request failed
     * @return its status: 404 unknown nodes, 422 no ring, 400 a bad request
     *         ({@link IllegalArgumentException}), an {@link HttpException}'s own, 500 anything else
     */
    static int status(Throwable e) {
        if (e instanceof UnknownNodesException) {
            return 404;
        }
        if (e instanceof NoRingException) {
            return 422;
        }
        if (e instanceof IllegalArgumentException) {
            return 400;
        }
        if (e instanceof HttpException http) {
            return http.getStatusCode();
        }
        return 500;
    }

    /**
     * @param status   the status being answered
     * @param e        the failure, or null
     * @param fallback the sentence when the failure has none to give, and always for a 500 (whose
     *                 failure is logged instead, once per exception class)
     * @return the answer's body
     */
    static Replies.ErrorReply body(int status, Throwable e, String fallback) {
        if (status == 500) {
            if (e != null && LOGGED.size() < LOGGED_CLASSES && LOGGED.add(e.getClass().getName())) {
                LOG.log(Level.WARNING, "internal error answering a request: " + quoted(e.toString()) + " (further ones of this kind are not "
                        + "logged; RAILMAP_DEBUG=1 shows the stack trace)", e);
            }
            return error(fallback);
        }
        if (e instanceof UnknownNodesException unknown) {
            return new Replies.ErrorReply(e.getMessage(), List.copyOf(unknown.nodes()), null);
        }
        if (e instanceof NoRingException noRing) {
            return new Replies.ErrorReply(e.getMessage(), null, List.copyOf(noRing.unplaceable()));
        }
        if (e instanceof HttpException http && http.getPayload() != null) {
            return error(http.getPayload());
        }
        if (e instanceof IllegalArgumentException && e.getMessage() != null) {
            return error(e.getMessage());
        }
        return error(fallback);
    }

    /** @return the status's reason phrase, e.g. {@code Not Found} for 404 */
    static String reason(int status) {
        return HttpResponseStatus.valueOf(status).reasonPhrase();
    }

    /**
     * @param limits the limits the request broke
     * @return the handler of a request Vert.x could not decode: 414 for a request line longer than
     *         {@link HttpLimits#maxInitialLine()}, 431 for headers larger than
     *         {@link HttpLimits#maxHeaderBytes()}, 400 for anything else malformed; the connection
     *         is closed after the answer (the rest of what it sent cannot be trusted to frame a
     *         next request)
     */
    static Handler<HttpServerRequest> invalidRequest(HttpLimits limits) {
        return request -> {
            Throwable cause = request.decoderResult().cause();
            int status;
            String sentence;
            if (cause instanceof TooLongHttpLineException) {
                status = 414;
                sentence = "the request line is longer than " + limits.maxInitialLine() + " bytes: ask for fewer hosts or options at once";
            } else if (cause instanceof TooLongHttpHeaderException || cause instanceof TooLongFrameException) {
                status = 431;
                sentence = "the request headers are larger than " + limits.maxHeaderBytes() + " bytes: send fewer or shorter headers";
            } else {
                status = 400;
                sentence = "malformed HTTP request" + (cause == null || cause.getMessage() == null ? "" : " (" + quoted(cause.getMessage()) + ")")
                        + ": send HTTP/1.1";
            }
            send(request.response().putHeader("connection", "close"), status, error(sentence));
            request.connection().close();
        };
    }
}
