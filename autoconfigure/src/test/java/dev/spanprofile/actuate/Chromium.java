package dev.spanprofile.actuate;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The system's headless Chromium driven through its chromedriver, both given explicitly
 * so that Selenium never tries to download a browser. On CI ({@code CI=true}) a missing
 * browser fails the test; elsewhere it skips it, saying what to install.
 */
final class Chromium implements AutoCloseable {

	private static final Path BROWSER = Path.of(System.getProperty("spanprofile.test.chromium", "/usr/bin/chromium"));

	private static final Path DRIVER = Path
		.of(System.getProperty("spanprofile.test.chromedriver", "/usr/bin/chromedriver"));

	/**
	 * Records Content-Security-Policy violations from the first moment of every page,
	 * before its own script.
	 */
	private static final String VIOLATION_RECORDER = "window.__cspViolations = [];"
			+ "document.addEventListener('securitypolicyviolation', function (e) {"
			+ " window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI); });";

	final ChromeDriver driver;

	private final ChromeDriverService service;

	private final Path profileDirectory;

	private Chromium(ChromeDriver driver, ChromeDriverService service, Path profileDirectory) {
		this.driver = driver;
		this.service = service;
		this.profileDirectory = profileDirectory;
	}

	static Chromium start() throws IOException {
		boolean present = Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
		if (!present) {
			String message = "Browser tests need " + BROWSER + " and " + DRIVER
					+ " (Debian: apt-get install chromium chromium-driver)";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				throw new IllegalStateException(message + "; .ci/run installs them");
			}
			Assumptions.abort(message);
		}
		// Browser and driver are both given explicitly, so Selenium Manager (which would
		// download them) never runs.
		Path profile = Files.createTempDirectory("spanprofile-chromium");
		ChromeOptions options = new ChromeOptions();
		options.setBinary(BROWSER.toFile());
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
				"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--force-device-scale-factor=1", "--window-size=1600,1000", "--user-data-dir=" + profile);
		LoggingPreferences logs = new LoggingPreferences();
		logs.enable(LogType.BROWSER, Level.ALL);
		options.setCapability("goog:loggingPrefs", logs);
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
			.usingAnyFreePort()
			.build();
		ChromeDriver driver = new ChromeDriver(service, options);
		driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(30));
		driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", VIOLATION_RECORDER));
		return new Chromium(driver, service, profile);
	}

	/** Load a page and wait until its script reports it ready. */
	void open(String url, String readyCheck) {
		// Console messages are kept until read: drop those of earlier pages.
		this.driver.manage().logs().get(LogType.BROWSER);
		this.driver.get(url);
		new WebDriverWait(this.driver, Duration.ofSeconds(20))
			.until((d) -> Boolean.TRUE.equals(this.driver.executeScript("return " + readyCheck)));
	}

	Object script(String script, Object... arguments) {
		return this.driver.executeScript(script, arguments);
	}

	@SuppressWarnings("unchecked")
	List<String> cspViolations() {
		return (List<String>) this.driver.executeScript("return window.__cspViolations || []");
	}

	/** Browser console messages at SEVERE level (script errors, refused resources). */
	List<String> severeConsoleMessages() {
		return this.driver.manage()
			.logs()
			.get(LogType.BROWSER)
			.getAll()
			.stream()
			.filter((entry) -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
			.map(LogEntry::getMessage)
			.toList();
	}

	Path screenshot(String name) throws IOException {
		Path directory = Path.of("target", "screenshots");
		Files.createDirectories(directory);
		File file = this.driver.getScreenshotAs(OutputType.FILE);
		Path target = directory.resolve(name);
		Files.copy(file.toPath(), target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
		return target;
	}

	/**
	 * Where the flame graph page draws the frame named {@code name}:
	 * {@code x, y, width, height} on its canvas.
	 */
	@SuppressWarnings("unchecked")
	Map<String, Object> frameRect(String name) {
		Map<String, Object> rect = (Map<String, Object>) script("return window.spanprofile.frameRect(arguments[0])",
				name);
		org.assertj.core.api.Assertions.assertThat(rect).as("frame %s on screen", name).isNotNull();
		return rect;
	}

	static double centreX(Map<String, Object> rect) {
		return ((Number) rect.get("x")).doubleValue() + ((Number) rect.get("width")).doubleValue() / 2;
	}

	static double centreY(Map<String, Object> rect) {
		return ((Number) rect.get("y")).doubleValue() + ((Number) rect.get("height")).doubleValue() / 2;
	}

	// Selenium's element offsets are measured from the element's centre.
	/**
	 * Scroll the page so that a frame of the graph drawn on {@code canvas} is in the
	 * middle of the window: a pointer moved to a frame below the fold is out of bounds.
	 */
	void scrollToFrame(org.openqa.selenium.WebElement canvas, Map<String, Object> rect) {
		script("const r = arguments[0].getBoundingClientRect();"
				+ " window.scrollBy(0, r.top + arguments[1] - window.innerHeight / 2);", canvas, centreY(rect));
	}

	static int offsetX(org.openqa.selenium.WebElement element, Map<String, Object> rect) {
		return (int) Math.round(centreX(rect) - element.getRect().getWidth() / 2.0);
	}

	static int offsetY(org.openqa.selenium.WebElement element, Map<String, Object> rect) {
		return (int) Math.round(centreY(rect) - element.getRect().getHeight() / 2.0);
	}

	void waitUntil(java.util.function.BooleanSupplier condition) {
		new WebDriverWait(this.driver, Duration.ofSeconds(10)).until((driver) -> condition.getAsBoolean());
	}

	@Override
	public void close() throws IOException {
		try {
			this.driver.quit();
		}
		finally {
			this.service.stop();
			try (var files = Files.walk(this.profileDirectory)) {
				files.sorted(java.util.Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
			}
		}
	}

}
