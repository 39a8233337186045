package dev.spanprofile.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.render.html.FlameGraphModel;
import dev.spanprofile.render.html.FlameGraphPage;
import dev.spanprofile.store.SpanRecord;

/**
 * Where a test's profiles go on disk:
 * {@code target/spanprofile/<test class>/<test method>-<n>.<kind>.html} (the interactive
 * flame graph the endpoint serves, self-contained) and {@code .collapsed} (collapsed
 * stacks, for a diff against another build's). Written for every failed or refused
 * assertion, and for every profile read when the report is on. The directory is
 * {@code target/spanprofile} under the working directory (a Maven module's) unless the
 * system property {@code spanprofile.test.output-directory} names another.
 */
final class ProfileFiles {

	static final String DIRECTORY_PROPERTY = "spanprofile.test.output-directory";

	static final String REPORT_PROPERTY = "spanprofile.test.report";

	/** Spans named in a page's header; a repeated request's others are counted. */
	private static final int LISTED_SPANS = 5;

	private final Path directory;

	private final String testName;

	private final boolean report;

	private final Map<RequestProfile, Integer> numbers = new IdentityHashMap<>();

	ProfileFiles(String testClass, String testMethod, boolean report) {
		this.directory = Paths.get(System.getProperty(DIRECTORY_PROPERTY, "target/spanprofile"))
			.toAbsolutePath()
			.resolve(safe(testClass));
		this.testName = safe(testMethod);
		this.report = report || Boolean.getBoolean(REPORT_PROPERTY);
	}

	/** A profile was read: with the report on, all its kinds are written now. */
	void onRead(RequestProfile profile) {
		if (this.report) {
			for (SampleKind kind : profile.sampler().kinds()) {
				write(profile, kind);
			}
		}
	}

	/**
	 * Write the flame graph and collapsed stacks of {@code kind}; returns the HTML file.
	 */
	synchronized Path write(RequestProfile profile, SampleKind kind) {
		int number = this.numbers.computeIfAbsent(profile, (key) -> this.numbers.size() + 1);
		String base = this.testName + "-" + number + "." + kind.id();
		Path html = this.directory.resolve(base + ".html");
		StackTree samples = profile.samplesOf(kind);
		try {
			Files.createDirectories(this.directory);
			Files.writeString(html, page(profile, kind, samples), StandardCharsets.UTF_8);
			Files.writeString(this.directory.resolve(base + ".collapsed"),
					CollapsedStacks.render(samples, profile.frames()), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not write the profile to " + html, ex);
		}
		return html;
	}

	private String page(RequestProfile profile, SampleKind kind, StackTree samples) {
		String title = profile.description();
		FlameGraphModel model = FlameGraphModel.builder(title, profile.frames(), new FrameClassifier(List.of()))
			.add(samples)
			.build();
		FlameGraphPage page = FlameGraphPage.of(model).title(title).indexHref(".");
		page.fact("test", this.directory.getFileName() + "." + this.testName)
			.fact("requests", Integer.toString(profile.requestCount()))
			.fact("samples", samples.totalSamples() + " " + kind.id() + (kind.counted() ? "" : " " + kind.unit()))
			.fact("sampling", profile.engine().event() + " every " + profile.sampler().interval().toMillis() + " ms · "
					+ profile.engine().engine());
		List<SpanRecord> requests = profile.requests();
		for (SpanRecord request : requests.subList(0, Math.min(LISTED_SPANS, requests.size()))) {
			page.fact("span", request.name() + " " + request.traceId() + "/" + request.spanId() + " at "
					+ Instant.ofEpochSecond(0, request.startEpochNanos()));
		}
		if (requests.size() > LISTED_SPANS) {
			page.fact("span", "and " + (requests.size() - LISTED_SPANS) + " more");
		}
		if (kind.counted()) {
			page.sampling(profile.engine().event(), profile.sampler().interval().toNanos() / 1e6);
		}
		else {
			page.sampling(kind.id(), 0).weightedIn(kind.unit());
		}
		return page.render();
	}

	private static String safe(String name) {
		return name.replaceAll("[^A-Za-z0-9._$-]", "_");
	}

}
