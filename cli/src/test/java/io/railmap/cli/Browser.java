package io.railmap.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's chromium, headless, driven through Debian's chromedriver, both given by path: Selenium
 * Manager never runs and nothing is downloaded. CI installs the packages {@code chromium} and
 * {@code chromium-driver} ({@code .ci/run}).
 */
final class Browser {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** Set to {@code required} (as {@code .ci/run} does), a missing browser fails the browser tests rather than skipping them. */
    static final String REQUIRED_VARIABLE = "RAILMAP_BROWSER_TESTS";

    private Browser() {
    }

    /** @return why no browser can run here, or empty when one can */
    static Optional<String> unavailable() {
        for (Path program : new Path[] {CHROMIUM, CHROMEDRIVER}) {
            if (!Files.isExecutable(program)) {
                return Optional.of(program + " is not installed (apt-get install chromium chromium-driver)");
            }
        }
        return Optional.empty();
    }

    /**
     * @return why the browser tests are skipped here, empty when a browser can run
     * @throws AssertionError when no browser can run and {@value #REQUIRED_VARIABLE} is {@code required}
     */
    static Optional<String> skipped() {
        Optional<String> why = unavailable();
        if (why.isPresent() && "required".equals(System.getenv(REQUIRED_VARIABLE))) {
            throw new AssertionError("the browser tests are required here (" + REQUIRED_VARIABLE + "=required) but cannot run: " + why.get());
        }
        return why;
    }

    /**
     * @param profile a fresh directory for the browser's profile
     * @return a headless chromium with a 1400×1000 window
     */
    static ChromeDriver start(Path profile) throws IOException {
        Files.createDirectories(profile);
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort().build();
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--user-data-dir=" + profile.toAbsolutePath());
        return new ChromeDriver(service, options);
    }
}
