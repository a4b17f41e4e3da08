package io.railmap.cli.client;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * Assembles server-sent events from lines (WHATWG HTML, "Server-sent events", "Interpreting an
 * event stream"): {@code field: value} lines, one space after the colon dropped; {@code data} lines
 * joined by newlines; a line starting with {@code :} a comment; a blank line dispatches the event
 * when it has data; {@code event} defaults to {@code message}; an {@code id} holding NUL is ignored.
 * {@code retry} is not used (the follower retries after a fixed delay).
 */
final class SseParser {
    private final Consumer<EventFollower.Event> dispatch;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String type = "";
    private Optional<String> id = Optional.empty();

    SseParser(Consumer<EventFollower.Event> dispatch) {
        this.dispatch = dispatch;
    }

    /** @param line one line, without its {@code \n} (a trailing {@code \r} is dropped) */
    void line(String line) {
        String l = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        if (l.isEmpty()) {
            if (hasData) {
                dispatch.accept(new EventFollower.Event(id, type.isEmpty() ? "message" : type, data.toString()));
            }
            data.setLength(0);
            hasData = false;
            type = "";
            id = Optional.empty();
            return;
        }
        if (l.startsWith(":")) {
            return;
        }
        int colon = l.indexOf(':');
        String field = colon < 0 ? l : l.substring(0, colon);
        String value = colon < 0 ? "" : l.substring(l.startsWith(" ", colon + 1) ? colon + 2 : colon + 1);
        switch (field) {
            case "data" -> {
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
            }
            case "event" -> type = value;
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    id = Optional.of(value);
                }
            }
            default -> {
                // retry and unknown fields are ignored, as the standard says
            }
        }
    }
}
