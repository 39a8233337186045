package dev.spanprofile.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.assertj.core.api.AbstractAssert;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.WaitKind;

/**
 * Assertions on the profile of the requests a test made. Those that rest on samples say
 * how many, and refuse to decide on too few ({@link InconclusiveProfileException}) rather
 * than pass or fail by chance; a failure gives the measured figure, the top self-time
 * frames and the path of a flame graph written for the test.
 */
public final class ProfileAssert extends AbstractAssert<ProfileAssert, RequestProfile> {

	ProfileAssert(RequestProfile profile) {
		super(profile, ProfileAssert.class);
	}

	/**
	 * The share of CPU samples with a frame whose name contains {@code frame}, e.g.
	 * {@code com.fasterxml.jackson}.
	 */
	public ShareAssert cpuShareUnder(String frame) {
		return share(SampleKind.CPU, "\"" + frame + "\"", (name) -> name.contains(frame));
	}

	/**
	 * The share of CPU samples with a frame whose name {@code frames} finds a match in.
	 */
	public ShareAssert cpuShareUnder(Pattern frames) {
		return share(SampleKind.CPU, "/" + frames.pattern() + "/", (name) -> frames.matcher(name).find());
	}

	/**
	 * The bytes allocated per request; needs {@code @ProfiledTest(event = { "cpu",
	 * "alloc" })}.
	 */
	public AllocationAssert allocatedBytes() {
		requireKind(SampleKind.ALLOC, "add \"alloc\" to @ProfiledTest(event = ...)");
		return new AllocationAssert(this.actual, this.actual.samplesOf(SampleKind.ALLOC).totalSamples(),
				this.actual.sampler().allocInterval());
	}

	/**
	 * The time per request spent waiting to enter locks; needs {@code @ProfiledTest(event
	 * = { "cpu", "lock" })}.
	 */
	public WaitAssert lockWait() {
		requireKind(SampleKind.LOCK, "add \"lock\" to @ProfiledTest(event = ...)");
		return new WaitAssert(this.actual, SampleKind.LOCK, "for locks",
				this.actual.samplesOf(SampleKind.LOCK).totalSamples());
	}

	/**
	 * The time per request spent waiting on {@code peer}: the recorded waits (socket or
	 * file I/O, locks, parks) whose subject contains it, e.g. {@code localhost:5432} for
	 * a database's answers.
	 */
	public WaitAssert waitsOn(String peer) {
		requireKind(SampleKind.WAIT, "waits are recorded unless spanprofile.waits.enabled=false");
		FrameTable frames = this.actual.frames();
		long[] nanos = new long[1];
		this.actual.samplesOf(SampleKind.WAIT).visit((path, depth, total, self) -> {
			int leaf = path[depth - 1];
			if (self > 0 && frames.kind(leaf) == FrameKind.WAIT) {
				String detail = WaitKind.detailOfFrameName(frames.name(leaf));
				if (detail != null && detail.contains(peer)) {
					nanos[0] += self;
				}
			}
		});
		return new WaitAssert(this.actual, SampleKind.WAIT, "on " + peer, nanos[0]);
	}

	/**
	 * No sample of any kind has a frame whose name {@code regex} finds a match in, e.g.
	 * {@code "java\\.lang\\.reflect"}. A matching sample fails at once; no match passes
	 * only on at least 20 samples of the request's main kind (cpu), which puts what a
	 * miss could hide under about a third of the request's time.
	 */
	public ProfileAssert hasNoFrameMatching(String regex) {
		Pattern pattern = Pattern.compile(regex);
		FrameTable frames = this.actual.frames();
		List<String> found = new ArrayList<>();
		for (SampleKind kind : this.actual.sampler().kinds()) {
			long weight = this.actual.weightThrough(kind, (id) -> pattern.matcher(frames.name(id)).find());
			if (weight > 0) {
				found.add(FailureReport.amount(kind, weight) + " of " + kind.id());
			}
		}
		SampleKind primary = this.actual.sampler().primaryKind();
		if (!found.isEmpty()) {
			throw new AssertionError(String.format(Locale.ROOT,
					"Expected no frame matching /%s/ in the profile of " + "%s, but %s went through one.", regex,
					this.actual.description(), String.join(", ", found))
					+ FailureReport.evidence(this.actual, primary));
		}
		long samples = this.actual.samplesOf(primary).totalSamples();
		if (primary.counted() && samples < ShareAssert.DEFAULT_MINIMUM_SAMPLES) {
			throw new InconclusiveProfileException(String.format(Locale.ROOT,
					"%d samples: too few to tell that no "
							+ "frame matching /%s/ runs in %s (at least %d needed). Run the request more often "
							+ "(SpanProfileAssertions.repeat) or lower the interval (@ProfiledTest(interval = ...)).",
					samples, regex, this.actual.description(), ShareAssert.DEFAULT_MINIMUM_SAMPLES)
					+ FailureReport.evidence(this.actual, primary));
		}
		return this;
	}

	private ShareAssert share(SampleKind kind, String description, java.util.function.Predicate<String> matches) {
		requireKind(kind, "sample a CPU event: @ProfiledTest(event = \"cpu\")");
		FrameTable frames = this.actual.frames();
		long hits = this.actual.weightThrough(kind, (id) -> matches.test(frames.name(id)));
		return new ShareAssert(this.actual, kind, description, hits, this.actual.samplesOf(kind).totalSamples());
	}

	private void requireKind(SampleKind kind, String remedy) {
		isNotNull();
		if (!this.actual.samples(kind)) {
			throw new IllegalStateException("No " + kind.id() + " samples are taken here (" + remedy + ")");
		}
	}

}
