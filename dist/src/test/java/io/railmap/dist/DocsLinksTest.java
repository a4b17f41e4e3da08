package io.railmap.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents hold together: every relative link of README.md and of the pages under docs/ (and the
 * Markdown files they link to) names a file that exists and, with {@code #anchor}, a heading of that file
 * (GitHub's anchors: the heading in lower case, without punctuation but {@code -} and {@code _}, spaces
 * made {@code -}, a repeated one numbered {@code -1}, {@code -2}) or an explicit {@code <a id="...">}; and every page under docs/ is reached
 * from README.md by following links.
 */
class DocsLinksTest {
    private static final Path CHECKOUT = Path.of(System.getProperty("railmap.checkout", "..")).toAbsolutePath().normalize();
    /** {@code [text](target)} and {@code ![alt](target)}, the target up to a space or ')'. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    /** An explicit anchor: {@code <a id="link-events"></a>}. */
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

    @Test
    void everyRelativeLinkResolvesAndEveryPageIsReachableFromTheReadme() throws IOException {
        Path readme = CHECKOUT.resolve("README.md");
        Set<Path> reached = new HashSet<>();
        ArrayDeque<Path> queue = new ArrayDeque<>(List.of(readme));
        List<String> broken = new ArrayList<>();
        while (!queue.isEmpty()) {
            Path page = queue.poll();
            if (!reached.add(page)) {
                continue;
            }
            for (String target : links(page)) {
                if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
                    continue;
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                String where = CHECKOUT.relativize(page) + " links to " + target;
                if (!Files.exists(resolved)) {
                    broken.add(where + ": no such file");
                    continue;
                }
                if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
                    broken.add(where + ": no such heading in " + CHECKOUT.relativize(resolved));
                }
                if (resolved.toString().endsWith(".md")) {
                    queue.add(resolved);
                }
            }
        }
        assertThat(broken).as("links that resolve to nothing").isEmpty();
        Set<String> unreached = new TreeSet<>();
        try (Stream<Path> pages = Files.list(CHECKOUT.resolve("docs"))) {
            pages.filter(p -> p.toString().endsWith(".md")).filter(p -> !reached.contains(p.normalize()))
                    .forEach(p -> unreached.add(CHECKOUT.relativize(p).toString()));
        }
        assertThat(unreached).as("pages under docs/ that no link from README.md reaches").isEmpty();
    }

    @Test
    void anchorsAreGitHubs() {
        assertThat(slug("Events: `GET /v1/events` and `railmap watch`")).isEqualTo("events-get-v1events-and-railmap-watch");
        assertThat(slug("`railmap check --env`")).isEqualTo("railmap-check---env");
        assertThat(slug("The daemon, `railmapd`")).isEqualTo("the-daemon-railmapd");
    }

    /** @return the link targets of a Markdown file, outside fenced code blocks and code spans */
    private static List<String> links(Path page) throws IOException {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", ""));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** @return the anchors of a Markdown file's headings, as GitHub makes them */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> out = new HashSet<>();
        if (!page.toString().endsWith(".md")) {
            return out;
        }
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher explicit = HTML_ANCHOR.matcher(line);
            while (explicit.find()) {
                out.add(explicit.group(1));
            }
            Matcher m = HEADING.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String slug = slug(m.group(2));
            int n = seen.merge(slug, 1, Integer::sum);
            out.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return out;
    }

    /** GitHub's heading anchor: lower case; letters, digits, '-' and '_' kept; spaces made '-'; the rest dropped. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
            } else if (c == ' ') {
                out.append('-');
            }
        });
        return out.toString();
    }
}
