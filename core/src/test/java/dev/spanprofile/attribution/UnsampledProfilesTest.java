package dev.spanprofile.attribution;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.tracking.UnsampledRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The samples of requests that tracing did not sample are held per request until
 * complete: within a bound on requests and call-tree nodes, and not for ever for a
 * request that never ends.
 */
class UnsampledProfilesTest {

	/** The collector's default {@code unsampledMaxAge}. */
	private static final long MAX_AGE_NANOS = TimeUnit.MINUTES.toNanos(10);

	private final UnsampledProfiles profiles = new UnsampledProfiles();

	private final List<String> folded = new ArrayList<>();

	@Test
	void aRequestIsHandedOnOnceEverySampleUpToItsEndIsJoined() {
		UnsampledRequest request = new UnsampledRequest(1_000);
		this.profiles.track(request).add(SampleKind.CPU, new int[] { 1, 2 }, 1);
		request.end("http get /a", false, 2_000);
		this.profiles.completeUpTo(1_999, this::fold, 3_000, MAX_AGE_NANOS);
		assertThat(this.folded).isEmpty();
		this.profiles.completeUpTo(2_000, this::fold, 3_000, MAX_AGE_NANOS);
		assertThat(this.folded).containsExactly("http get /a: 1 cpu");
		assertThat(this.profiles.pendingCount()).isZero();
	}

	@Test
	void aRequestFoundAgainAfterItWasFoldedIsNotTakenUpAgain() {
		UnsampledRequest request = new UnsampledRequest(1_000);
		this.profiles.track(request).add(SampleKind.CPU, new int[] { 1, 2 }, 1);
		request.end("http get /a", false, 2_000);
		this.profiles.completeUpTo(2_000, this::fold, 3_000, MAX_AGE_NANOS);
		// A thread's point of leaving it, drained by the next collection.
		assertThat(this.profiles.track(request)).isNull();
		this.profiles.completeUpTo(4_000, this::fold, 5_000, MAX_AGE_NANOS);
		assertThat(this.folded).containsExactly("http get /a: 1 cpu");
		assertThat(this.profiles.pendingCount()).isZero();
	}

	@Test
	void beyondTheRequestBoundANewRequestKeepsNoSamples() {
		List<UnsampledRequest> requests = new ArrayList<>();
		for (int i = 0; i < UnsampledProfiles.MAX_PENDING; i++) {
			UnsampledRequest request = new UnsampledRequest(i);
			requests.add(request);
			assertThat(this.profiles.track(request)).isNotNull();
		}
		assertThat(this.profiles.track(new UnsampledRequest(0))).isNull();
		assertThat(this.profiles.track(requests.get(0))).as("one already held").isNotNull();
		requests.get(0).end("http get /a", false, 10);
		this.profiles.completeUpTo(10, this::fold, 10, MAX_AGE_NANOS);
		assertThat(this.profiles.track(new UnsampledRequest(0))).as("room again").isNotNull();
	}

	@Test
	void beyondTheFrameBoundSamplesAreNotKept() {
		UnsampledRequest request = new UnsampledRequest(0);
		UnsampledProfiles.Pending pending = this.profiles.track(request);
		int[] stack = new int[10_000];
		int stacks = UnsampledProfiles.MAX_FRAMES / stack.length + 5;
		for (int i = 0; i < stacks; i++) {
			// The same stack each time counts all the same: its frames are held per
			// sample.
			pending.add(SampleKind.CPU, stack, 1);
		}
		request.end("http get /deep", false, 1);
		this.profiles.completeUpTo(1, this::fold, 1, MAX_AGE_NANOS);
		assertThat(this.folded)
			.containsExactly("http get /deep: " + (UnsampledProfiles.MAX_FRAMES / stack.length) + " cpu");
	}

	@Test
	void aRequestThatNeverEndsIsLetGo() {
		UnsampledRequest request = new UnsampledRequest(0);
		this.profiles.track(request).add(SampleKind.CPU, new int[] { 1 }, 1);
		this.profiles.completeUpTo(Long.MAX_VALUE, this::fold, MAX_AGE_NANOS, MAX_AGE_NANOS);
		assertThat(this.profiles.pendingCount()).isOne();
		this.profiles.completeUpTo(Long.MAX_VALUE, this::fold, MAX_AGE_NANOS + 1, MAX_AGE_NANOS);
		assertThat(this.profiles.pendingCount()).isZero();
		assertThat(this.folded).isEmpty();
	}

	private void fold(UnsampledRequest request, StackTree[] samples) {
		StackTree cpu = samples[SampleKind.CPU.ordinal()];
		this.folded.add(request.name() + ": " + ((cpu != null) ? cpu.totalSamples() : 0) + " cpu");
	}

}
