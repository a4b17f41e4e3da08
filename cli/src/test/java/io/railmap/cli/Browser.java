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
