package dev.spanprofile.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

import dev.spanprofile.ProfilerState;
import dev.spanprofile.SpanProfiler;
import dev.spanprofile.store.SpanRecord;

/**
 * The requests of one running test: which local roots (requests in this process) were
 * there before it, so that the ones it made can be told apart, and how to wait until
 * their profiles are complete. A profile is complete once every sample up to the
 * request's end has been joined; the wait asks the profiler to collect rather than
 * waiting for its next cycle, and gives up after {@link #TIMEOUT} with the reason. The
 * waits, which Flight Recorder's stream delivers a second or two later, are awaited only
 * by a reader of waits.
 */
final class ProfiledRequests {

	static final Duration TIMEOUT = Duration.ofSeconds(15);

	private static final int ALL = Integer.MAX_VALUE;

	private final SpanProfiler profiler;

	private final ProfileFiles files;

	private final Set<String> before;

	private final ProfileHeader header;

	/**
	 * @param header the on-demand header the application takes, {@code null} when it is
	 * off
	 */
	ProfiledRequests(SpanProfiler profiler, ProfileFiles files, ProfileHeader header) {
		this.profiler = profiler;
		this.files = files;
		this.before = rootIds();
		this.header = header;
	}

	ProfileHeader profileHeader() {
		if (this.header == null) {
			throw new IllegalStateException("On-demand profiling is off in the test's application: "
					+ "@ProfiledTest turns it on (spanprofile.on-demand.enabled and .token); leave those properties "
					+ "as it sets them to send profileHeader()");
		}
		return this.header;
	}

	/**
	 * The request whose span {@code serverTiming} names ({@code spanprofile;desc="…"} or
	 * a bare span id), once its profile is complete.
	 */
	RequestProfile request(String serverTiming) {
		String spanId = SpanIds.fromServerTiming(serverTiming);
		SpanRecord record = this.profiler.store().find(spanId);
		if (record == null) {
			throw new IllegalStateException("No stored request has the span " + spanId + " (from Server-Timing '"
					+ serverTiming + "'): was the request sent to this test's application with profileHeader()?");
		}
		return complete(List.of(record.localRoot()), "the request " + spanId);
	}

	SpanProfiler profiler() {
		return this.profiler;
	}

	ProfileFiles files() {
		return this.files;
	}

	/** The newest request since the test started, once its profile is complete. */
	RequestProfile lastRequest() {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		List<SpanRecord> started = rootsStartedSince(this.before);
		while (started.isEmpty()) {
			checkRunning();
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("No traced request since the test started (waited "
						+ TIMEOUT.toSeconds()
						+ " s). Is the request traced? A MockMvc call is when the observation filter is applied "
						+ "(@AutoConfigureMockMvc does); a request whose trace the tracer did not sample is not "
						+ "profiled (@ProfiledTest sets management.tracing.sampling.probability=1.0).");
			}
			sleep();
			started = rootsStartedSince(this.before);
		}
		return complete(List.of(started.get(0)), "the last request");
	}

	/**
	 * Every request that started while {@code work} ran, once their profiles are
	 * complete.
	 */
	RequestProfile requestsIn(TracedWork work, String description) {
		Set<String> known = rootIds();
		try {
			work.run();
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new IllegalStateException("The traced work failed: " + ex, ex);
		}
		List<SpanRecord> started = rootsStartedSince(known);
		if (started.isEmpty()) {
			throw new IllegalStateException("No traced request started in " + description + ": is the code traced, and "
					+ "sampled by the tracer (@ProfiledTest sets management.tracing.sampling.probability=1.0)?");
		}
		return complete(started, description);
	}

	/**
	 * The profile of {@code roots} once every sample but the waits is joined: one
	 * collection after they ended. The waits' stream delivers a second or two later; the
	 * profile awaits it only when the waits are read.
	 */
	private RequestProfile complete(List<SpanRecord> roots, String description) {
		awaitJoined(roots, description, this.profiler::sampledUpToEpochNanos);
		RequestProfile profile = new RequestProfile(roots, this.profiler.store().frames(),
				this.profiler.settings().sampler(), this.profiler.status(), this.files,
				() -> awaitJoined(roots, description, this.profiler::completeUpToEpochNanos));
		this.files.onRead(profile);
		return profile;
	}

	private void awaitJoined(List<SpanRecord> roots, String description, LongSupplier joinedUpTo) {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (!isJoined(roots, joinedUpTo)) {
			checkRunning();
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(incompleteReason(roots, description, joinedUpTo));
			}
			if (roots.stream().noneMatch(SpanRecord::inFlight)) {
				// The test knows its requests ended: collect now rather than at the
				// next cycle.
				this.profiler.collectNow();
				if (isJoined(roots, joinedUpTo)) {
					break;
				}
			}
			sleep();
		}
	}

	private static boolean isJoined(List<SpanRecord> roots, LongSupplier joinedUpTo) {
		long upTo = joinedUpTo.getAsLong();
		for (SpanRecord root : roots) {
			if (root.inFlight() || root.endEpochNanos() > upTo) {
				return false;
			}
		}
		return true;
	}

	private String incompleteReason(List<SpanRecord> roots, String description, LongSupplier joinedUpTo) {
		List<String> running = new ArrayList<>();
		for (SpanRecord root : roots) {
			if (root.inFlight()) {
				running.add(root.name() + " (" + root.spanId() + ")");
			}
		}
		if (!running.isEmpty()) {
			return "The profile of " + description + " is not complete after " + TIMEOUT.toSeconds() + " s: still "
					+ "running: " + String.join(", ", running) + ". A request that never ends (or a span never "
					+ "ended) has no complete profile.";
		}
		return "The profile of " + description + " is not complete after " + TIMEOUT.toSeconds() + " s: samples are "
				+ "joined up to " + joinedUpTo.getAsLong() + " (epoch ns), the request ended later. Engine: "
				+ this.profiler.status() + ".";
	}

	private void checkRunning() {
		ProfilerState state = this.profiler.state();
		if (!state.isRunning()) {
			throw new IllegalStateException("spanprofile is not running (" + state.phase() + "): "
					+ ((state.reason() != null) ? state.reason() : "stopped") + ". Profile assertions need a running "
					+ "engine: see the application's startup log for why.");
		}
	}

	/** Local roots started since {@code known} was taken, newest first. */
	private List<SpanRecord> rootsStartedSince(Set<String> known) {
		List<SpanRecord> roots = new ArrayList<>();
		for (SpanRecord record : this.profiler.store().recent(SpanRecord::isLocalRoot, ALL)) {
			if (!known.contains(record.spanId())) {
				roots.add(record);
			}
		}
		roots.sort(Comparator.comparingLong(SpanRecord::startEpochNanos).reversed());
		return roots;
	}

	private Set<String> rootIds() {
		Set<String> ids = new HashSet<>();
		for (SpanRecord record : this.profiler.store().recent(SpanRecord::isLocalRoot, ALL)) {
			ids.add(record.spanId());
		}
		return ids;
	}

	private static void sleep() {
		try {
			Thread.sleep(20);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for a profile", ex);
		}
	}

}
