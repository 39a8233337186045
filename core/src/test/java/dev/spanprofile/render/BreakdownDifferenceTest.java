package dev.spanprofile.render;

import java.util.List;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.WaitKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The sentence that explains why slow requests are slow: per-request differences of two
 * sides' summed breakdowns, exact, largest first, adding up to the difference of their
 * mean durations.
 */
class BreakdownDifferenceTest {

	private static final long MS = 1_000_000;

	private final FrameTable frames = new FrameTable();

	private final FrameClassifier classifier = new FrameClassifier(List.of("app"));

	/** 10 requests of 100 ms: CPU 30, 18 trips to db 50, a core 10, unaccounted 10. */
	private final TimeBreakdown slow = TimeBreakdown.ofRequests(10, 1_000 * MS)
		.cpu(300 * MS, true)
		.wait(WaitKind.SOCKET_READ, "db:5432", false, 500 * MS, 180)
		.kernel(10, 100 * MS, 0, 0)
		.rest(100 * MS, 0)
		.build();

	/** 20 requests of 20 ms: CPU 10, 4 trips 5, a core 1, unaccounted 4. */
	private final TimeBreakdown typical = TimeBreakdown.ofRequests(20, 400 * MS)
		.cpu(200 * MS, true)
		.wait(WaitKind.SOCKET_READ, "db:5432", false, 100 * MS, 80)
		.kernel(20, 20 * MS, 0, 0)
		.rest(80 * MS, 0)
		.build();

	@Test
	void termsArePerRequestDifferencesLargestFirstAddingUpToTheMeanDurations() {
		BreakdownDifference difference = BreakdownDifference.of("slow requests", this.slow, this.typical, null, null,
				this.frames, this.classifier);
		assertThat(difference.moreNanosPerRequest()).isEqualTo(80.0 * MS);
		assertThat(difference.terms()).extracting(BreakdownDifference.Term::part)
			.containsExactly("round trips", "CPU", TimeBreakdown.CORE_WAIT, "unaccounted");
		BreakdownDifference.Term trips = difference.terms().get(0);
		assertThat(trips.moreNanosPerRequest()).isEqualTo(45.0 * MS);
		assertThat(trips.moreCountPerRequest()).isEqualTo(14.0);
		assertThat(trips.peer()).isEqualTo("db:5432");
		assertThat(difference.terms().get(1).moreNanosPerRequest()).isEqualTo(20.0 * MS);
		assertThat(difference.terms().get(2).moreNanosPerRequest()).isEqualTo(9.0 * MS);
		assertThat(difference.terms().get(3).moreNanosPerRequest()).isEqualTo(6.0 * MS);
		assertThat(difference.termsNanosPerRequest()).isCloseTo(difference.moreNanosPerRequest(), within(1.0));
		assertThat(difference.sentence()).isEqualTo("slow requests take 80.0 ms more: +45.0 ms in 14.0 more round "
				+ "trips to db:5432, +20.0 ms CPU, +9.0 ms waiting for a core, +6.0 ms unaccounted");
	}

	@Test
	void theCallerOfAPeersRoundTripsAndWhereCpuWentAreNamedFromTheMergedSamples() {
		int repository = this.frames.intern("app.OwnerRepository.findByLastName", FrameKind.JAVA);
		int driver = this.frames.intern("org.postgresql.core.PGStream.receive", FrameKind.JAVA);
		int read = this.frames.intern("[socket read db:5432]", FrameKind.WAIT);
		StackTree slowWaits = new StackTree();
		slowWaits.add(new int[] { repository, driver, read }, 500 * MS, 180);
		StackTree typicalWaits = new StackTree();
		typicalWaits.add(new int[] { repository, driver, read }, 100 * MS, 80);
		int render = this.frames.intern("org.thymeleaf.TemplateEngine.process", FrameKind.JAVA);
		StackTree slowCpu = new StackTree();
		slowCpu.add(new int[] { render }, 30);
		StackTree typicalCpu = new StackTree();
		typicalCpu.add(new int[] { render }, 20);

		BreakdownDifference difference = BreakdownDifference.of("slow requests", this.slow, this.typical,
				StackTree.sideBySide(slowWaits, typicalWaits), StackTree.sideBySide(slowCpu, typicalCpu), this.frames,
				this.classifier);
		assertThat(difference.sentence()).startsWith("slow requests take 80.0 ms more: +45.0 ms in 14.0 more round "
				+ "trips to db:5432 (OwnerRepository.findByLastName), +20.0 ms CPU (most in "
				+ "TemplateEngine.process)");
	}

	@Test
	void overlapIsTakenOffSoThatTheTermsAddUpAndAFasterSideSaysLess() {
		// 2 requests of 10 ms: CPU 30 in all (threads at once), 10 counted twice.
		TimeBreakdown fast = TimeBreakdown.ofRequests(2, 20 * MS).cpu(30 * MS, false).rest(0, 10 * MS).build();
		BreakdownDifference difference = BreakdownDifference.of("selected requests", fast, this.typical, null, null,
				this.frames, this.classifier);
		assertThat(difference.moreNanosPerRequest()).isEqualTo(-10.0 * MS);
		assertThat(difference.termsNanosPerRequest()).isCloseTo(-10.0 * MS, within(1.0));
		assertThat(difference.sentence()).startsWith("selected requests take 10.0 ms less: ");
		assertThat(difference.terms()).anySatisfy((term) -> {
			assertThat(term.part()).startsWith("counted twice");
			assertThat(term.moreNanosPerRequest()).isEqualTo(-5.0 * MS);
		});
	}

	@Test
	void noSentenceWithoutRequestsOnBothSides() {
		TimeBreakdown none = TimeBreakdown.ofRequests(0, 0).build();
		assertThat(
				BreakdownDifference.of("slow requests", none, this.typical, null, null, this.frames, this.classifier))
			.isNull();
	}

}
