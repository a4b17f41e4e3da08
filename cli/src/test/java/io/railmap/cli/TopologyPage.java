package io.railmap.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * A lab daemon's topology page in a real browser ({@link Browser}), reached through a
 * {@link UnixSocketRelay} to the daemon's Unix socket, read through the SVG's machine-readable
 * attributes ({@code io.railmap.matrix.draw.TopologySvg}).
 */
final class TopologyPage implements AutoCloseable {
    private final UnixSocketRelay relay;
    private final ChromeDriver driver;

    private TopologyPage(UnixSocketRelay relay, ChromeDriver driver) {
        this.relay = relay;
        this.driver = driver;
    }

    /**
     * @param socket  the daemon's API socket
     * @param profile a fresh directory for the browser's profile
     * @return the page, loading
     */
    static TopologyPage open(Path socket, Path profile) throws IOException {
        UnixSocketRelay relay = new UnixSocketRelay(socket);
        try {
            ChromeDriver driver = Browser.start(profile);
            driver.get(relay.url());
            return new TopologyPage(relay, driver);
        } catch (RuntimeException | IOException e) {
            relay.close();
            throw e;
        }
    }

    /** @return the nodes drawn, in the picture's order */
    List<String> nodes() {
        return attribute("#picture g.node", "data-node").stream().toList();
    }

    /** @return the confirmed cables drawn, each {@code a:en2 b:en4} */
    Set<String> cables() {
        return new TreeSet<>(attribute("#picture g.cable:not(.unconfirmed)", "data-cable"));
    }

    /** @return the port labels drawn on the confirmed cables */
    Set<String> portLabels() {
        return new TreeSet<>(attribute("#picture g.cable:not(.unconfirmed) text.port", "data-port"));
    }

    /** @return the switches drawn, in the picture's order */
    List<String> switches() {
        return attribute("#picture g.switch", "data-switch").stream().toList();
    }

    /** @return the NIC lines drawn, each {@code g1:eth2 leaf0} (its port and the switch it reaches) */
    Set<String> nics() {
        return new TreeSet<>(attribute("#picture g.nic", "data-port", "data-switch"));
    }

    /** @return the picture's header as the page shows it: {@code 4 nodes, 8 cables, ...} */
    String summary() {
        return driver.findElement(By.id("summary")).getText();
    }

    /** The box of a node or switch as the browser lays it out, in CSS pixels of the viewport. */
    record Box(String what, double left, double top, double right, double bottom) {
        boolean overlaps(Box o) {
            return left < o.right && o.left < right && top < o.bottom && o.top < bottom;
        }
    }

    /** @return the boxes of the nodes and switches drawn ({@code getBoundingClientRect} of each one's {@code rect}), read in one script */
    @SuppressWarnings("unchecked")
    List<Box> boxes() {
        List<List<Object>> rows = (List<List<Object>>) driver.executeScript("return Array.from(document.querySelectorAll("
                + "'#picture g.node > rect, #picture g.switch > rect'), r => { const b = r.getBoundingClientRect();"
                + " const g = r.parentNode; return [g.getAttribute('data-node') || g.getAttribute('data-switch'), b.left, b.top, b.right, b.bottom]; });");
        return rows.stream().map(r -> new Box((String) r.get(0), ((Number) r.get(1)).doubleValue(), ((Number) r.get(2)).doubleValue(),
                ((Number) r.get(3)).doubleValue(), ((Number) r.get(4)).doubleValue())).toList();
    }

    /** @return the live state and its sentence: {@code live: ...}, {@code off: ...} */
    String live() {
        WebElement live = driver.findElement(By.id("live"));
        return live.getDomAttribute("data-state") + ": " + live.getText();
    }

    /** @return the agreement sentence */
    String agreement() {
        return driver.findElement(By.id("agreement")).getText();
    }

    /** @return the note above the matrix (what to type, or why nothing is filled in) */
    String matrixNote() {
        return driver.findElement(By.id("matrix-note")).getText();
    }

    /** @return what the hosts field holds */
    String hosts() {
        return driver.findElement(By.id("hosts")).getDomProperty("value");
    }

    /**
     * Types hosts into the matrix form and shows their matrix.
     *
     * @return the matrix table's rows as the page shows them, the header row first
     */
    List<String> matrix(String hosts) {
        WebElement input = driver.findElement(By.id("hosts"));
        input.clear();
        input.sendKeys(hosts);
        driver.findElement(By.cssSelector("#matrix-form button")).click();
        return matrixRows();
    }

    /** @return the matrix table's rows, cells separated by " | " */
    List<String> matrixRows() {
        return rows("#matrix tr");
    }

    /** @return the running jobs' lines, cells separated by " | " ({@code jaccl 10.0.0.1:5000 | 0,1 | a,b | ok}) */
    List<String> jobs() {
        return rows("#jobs tr.job");
    }

    /** @return the running jobs' findings as listed, {@code error job-rail-mismatch: ...} */
    List<String> jobFindings() {
        return texts("#jobs-findings li");
    }

    /** @return the cables outlined for a running job's finding, each {@code a:en2 b:en4} */
    Set<String> jobCables() {
        return new TreeSet<>(attribute("#picture g.cable.job-finding", "data-cable"));
    }

    /** Runs a script in the page and returns its value. */
    Object script(String js) {
        return driver.executeScript(js);
    }

    /** Saves what the browser shows as PNG. */
    void screenshot(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), file, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Reads every row matched in one script (the page rebuilds its tables on every event, so an element found by one
     * WebDriver call may be gone at the next): each row's cells' text, trimmed, separated by " | ".
     */
    @SuppressWarnings("unchecked")
    private List<String> rows(String css) {
        return (List<String>) driver.executeScript("return Array.from(document.querySelectorAll(arguments[0]),"
                + " r => Array.from(r.querySelectorAll('td'), c => c.innerText.trim()).join(' | '));", css);
    }

    /** Reads every match's text, trimmed, in one script (as {@link #rows}). */
    @SuppressWarnings("unchecked")
    private List<String> texts(String css) {
        return (List<String>) driver.executeScript("return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText.trim());", css);
    }

    /**
     * Reads every match in one script: the page may swap its picture between two WebDriver calls.
     *
     * @return each match's attributes, separated by a space
     */
    @SuppressWarnings("unchecked")
    private List<String> attribute(String css, String... names) {
        return (List<String>) driver.executeScript("return Array.from(document.querySelectorAll(arguments[0]),"
                + " e => arguments[1].map(n => e.getAttribute(n)).join(' '));", css, List.of(names));
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            relay.close();
        }
    }
}
