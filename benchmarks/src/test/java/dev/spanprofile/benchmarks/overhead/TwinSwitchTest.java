package dev.spanprofile.benchmarks.overhead;

import java.util.List;

import dev.spanprofile.benchmarks.overhead.TwinSwitch.Figures;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The arithmetic of the opposite-phase comparison: what it cancels and what it keeps. */
class TwinSwitchTest {

	@Test
	void aCopyThatIsSlowerThroughoutAndAMachineThatSlowsDownBothCancel() {
		// Copy a costs 20 % more than b whatever it does; the machine is 30 % slower in
		// the second window; profiling costs 10 %.
		double a = 1.2;
		double slower = 1.3;
		double on = 1.1;
		Figures[] first = { figures(a * on * 500), figures(500) };
		Figures[] second = { figures(a * slower * 500), figures(slower * on * 500) };
		double[] ratios = TwinSwitch.pairRatios(first, second, true);
		assertThat(ratios[0]).isCloseTo(1.1, within(1e-9));
		// The same pair with b switched on first.
		Figures[] bFirst = { figures(a * 500), figures(on * 500) };
		Figures[] aSecond = { figures(a * slower * on * 500), figures(slower * 500) };
		assertThat(TwinSwitch.pairRatios(bFirst, aSecond, false)[0]).isCloseTo(1.1, within(1e-9));
	}

	@Test
	void aControlPairComparesTheCopiesAcrossTwoWindows() {
		Figures[] first = { figures(600), figures(500) };
		Figures[] unchanged = { figures(660), figures(550) };
		assertThat(TwinSwitch.pairRatios(first, unchanged, true)[0]).isCloseTo(1.0, within(1e-9));
		// b alone 21 % dearer in the second window: half of it on each side of the
		// geometric mean.
		Figures[] bDearer = { figures(600), figures(605) };
		assertThat(TwinSwitch.pairRatios(first, bDearer, true)[0]).isCloseTo(1.1, within(1e-9));
	}

	@Test
	void quartilesInterpolateBetweenRanks() {
		List<Double> values = List.of(1.0, 2.0, 3.0, 4.0, 5.0);
		assertThat(TwinResult.quantile(values, 0.5)).isEqualTo(3.0);
		assertThat(TwinResult.quantile(values, 0.25)).isEqualTo(2.0);
		assertThat(TwinResult.quantile(List.of(1.0, 2.0), 0.5)).isEqualTo(1.5);
	}

	private static Figures figures(double cpuMicrosPerRequest) {
		return new Figures(cpuMicrosPerRequest, cpuMicrosPerRequest, cpuMicrosPerRequest, 1000, 5);
	}

}
