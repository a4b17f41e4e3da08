package io.railmap.discovery.macos;

import java.util.Objects;

/**
 * What a command printed on standard output.
 *
 * @param source what was read, for messages: the command line, or the capture file's path
 * @param text   the output, decoded as UTF-8
 */
public record CommandOutput(String source, String text) {
    /** @throws NullPointerException when a component is null */
    public CommandOutput {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(text, "text");
    }
}
