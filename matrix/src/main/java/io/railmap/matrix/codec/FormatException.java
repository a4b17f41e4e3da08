package io.railmap.matrix.codec;

/**
 * A document does not follow its format. The message reads
 * {@code <source>: at <json path>: <problem>}, for example
 * {@code snapshot.json: at $.records[0].ports[1].kind: unknown port kind "wifi" (expected one of ...)}.
 */
public final class FormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String source;
    private final String path;
    private final String problem;

    /**
     * @param source  what was read: a file name, {@code "request body"}, …
     * @param path    where in the document, as a JSON path ({@code $} is the root)
     * @param problem what is wrong, as a sentence fragment
     */
    public FormatException(String source, String path, String problem) {
        super(source + ": at " + path + ": " + problem);
        this.source = source;
        this.path = path;
        this.problem = problem;
    }

    /** @return what was read */
    public String source() {
        return source;
    }

    /** @return the JSON path of the problem */
    public String path() {
        return path;
    }

    /** @return what is wrong */
    public String problem() {
        return problem;
    }
}
