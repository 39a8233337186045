package dev.spanprofile.aggregate;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.WaitKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What folding one finished request's breakdown into its name's cell costs, on the
 * collector thread: a chatty request (40 round trips to two peers under three callers, a
 * park, 30-frame stacks), folded again and again into the same cell after a warm-up. A
 * plain loop, not JMH: it reports the order of magnitude the docs quote and fails only if
 * the fold became far costlier (a map or a parse per request).
 */
class BreakdownFoldCostTest {

	private static final int WARM_UP = 50_000;

	private static final int MEASURED = 200_000;

	@Test
	void foldingOneRequestsBreakdownCostsAFewMicroseconds() {
		FrameTable frames = new FrameTable();
		StackTree waits = chattyRequest(frames);
		BreakdownFold fold = new BreakdownFold(frames);
		BreakdownSums cell = new BreakdownSums();
		for (int i = 0; i < WARM_UP; i++) {
			fold.fold(cell, 80_000_000, waits, 10_000_000, false, 1, -1, -1);
		}
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
		long start = System.nanoTime();
		for (int i = 0; i < MEASURED; i++) {
			fold.fold(cell, 80_000_000, waits, 10_000_000, false, 1, -1, -1);
		}
		double nanosPerFold = (System.nanoTime() - start) / (double) MEASURED;
		double bytesPerFold = (threads.getCurrentThreadAllocatedBytes() - allocatedBefore) / (double) MEASURED;
		System.out.printf("breakdown fold: %.2f µs and %.0f bytes allocated per request (%d wait nodes)%n",
				nanosPerFold / 1e3, bytesPerFold, waits.nodeCount());
		assertThat(cell.requests).isEqualTo(WARM_UP + MEASURED);
		assertThat(cell.size()).as("slots in the cell").isEqualTo(3);
		// What the walk of the tree allocates (its path array and visitor adapter), no
		// map or list per request.
		assertThat(bytesPerFold).isLessThan(1_000);
		assertThat(nanosPerFold).isLessThan(100_000);
	}

	@Test
	void foldingOneRequestIntoANameCostsItsSamplesAndBreakdown() {
		FrameTable frames = new FrameTable();
		NameAggregates aggregates = new NameAggregates(AggregateSettings.defaults(), frames,
				() -> Duration.ofDays(20_000).toNanos(), () -> 20_000_000);
		StackTree[] trees = new StackTree[SampleKind.values().length];
		trees[SampleKind.WAIT.ordinal()] = chattyRequest(frames);
		trees[SampleKind.CPU.ordinal()] = new StackTree();
		trees[SampleKind.CPU.ordinal()].add(stack(frames, "app.Owners.render", 30), 2);
		for (int i = 0; i < WARM_UP; i++) {
			aggregates.foldUnsampled("GET /owners", 80_000_000, Duration.ofDays(20_000).toNanos(), false, trees);
		}
		long start = System.nanoTime();
		for (int i = 0; i < MEASURED; i++) {
			aggregates.foldUnsampled("GET /owners", 80_000_000, Duration.ofDays(20_000).toNanos(), false, trees);
		}
		double nanosPerFold = (System.nanoTime() - start) / (double) MEASURED;
		System.out.printf("whole fold into a name (samples and breakdown): %.2f µs per request%n", nanosPerFold / 1e3);
		assertThat(aggregates.profile("GET /owners", Duration.ofMinutes(5), SampleKind.CPU, 0, Long.MAX_VALUE)
			.breakdown()
			.requests()).isEqualTo(WARM_UP + MEASURED);
	}

	/** 40 round trips to two peers under three callers, and a park. */
	private static StackTree chattyRequest(FrameTable frames) {
		StackTree waits = new StackTree();
		String[] callers = { "app.OwnerRepository.findByLastName", "app.PetRepository.findByOwner",
				"app.VisitRepository.findByPet" };
		for (int caller = 0; caller < callers.length; caller++) {
			int[] path = stack(frames, callers[caller], 30);
			String peer = (caller < 2) ? "PostgreSQL petclinic at db:5432" : "cache:6379";
			path[path.length - 1] = frames.intern(WaitKind.SOCKET_READ.frameName(peer), FrameKind.WAIT);
			waits.add(path, 13 * 8_000_000L, 13 + caller / 2);
		}
		int[] parked = stack(frames, "app.Owners.await", 20);
		parked[parked.length - 1] = frames.intern(WaitKind.PARK.frameName(null), FrameKind.WAIT);
		waits.add(parked, 25_000_000, 1);
		return waits;
	}

	private static int[] stack(FrameTable frames, String caller, int depth) {
		int[] path = new int[depth];
		for (int i = 0; i < depth - 2; i++) {
			path[i] = frames.intern("org.server.Layer" + i + ".invoke", FrameKind.JAVA);
		}
		path[depth - 2] = frames.intern(caller, FrameKind.JAVA);
		path[depth - 1] = frames.intern("org.postgresql.core.PGStream.receive", FrameKind.JAVA);
		return path;
	}

}
