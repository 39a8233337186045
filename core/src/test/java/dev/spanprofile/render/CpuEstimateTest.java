package dev.spanprofile.render;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A CPU time estimated from samples says how sure it is: the wider of one sample and the
 * square root of the count either side.
 */
class CpuEstimateTest {

	private static final long MS = 1_000_000;

	@Test
	void oneSampleAtTwentyMillisIsZeroToForty() {
		TimeBreakdown breakdown = TimeBreakdown.of(100 * MS, 20 * MS, 0, new StackTree(), new FrameTable())
			.cpuSamples(1, 20 * MS);
		assertThat(breakdown.cpuEstimated()).isTrue();
		assertThat(breakdown.cpuLowNanos()).isZero();
		assertThat(breakdown.cpuHighNanos()).isEqualTo(40 * MS);
		assertThat(breakdown.cpuRangeText(CpuShare::millis)).isEqualTo("1 sample at 20.0 ms: 0.0 ms to 40.0 ms");
		TimeBreakdownJson json = breakdown.json();
		assertThat(json.cpuSamples()).isEqualTo(1);
		assertThat(json.cpuLowMillis()).isEqualTo(0.0);
		assertThat(json.cpuHighMillis()).isEqualTo(40.0);
	}

	@Test
	void manySamplesAreSureToTheSquareRootOfTheirCount() {
		TimeBreakdown breakdown = TimeBreakdown.of(2_000 * MS, 1_000 * MS, 0, new StackTree(), new FrameTable())
			.cpuSamples(100, 10 * MS);
		assertThat(breakdown.cpuLowNanos()).isEqualTo(900 * MS);
		assertThat(breakdown.cpuHighNanos()).isEqualTo(1_100 * MS);
		// Four samples: ±2, not ±1.
		TimeBreakdown four = TimeBreakdown.of(200 * MS, 40 * MS, 0, new StackTree(), new FrameTable())
			.cpuSamples(4, 10 * MS);
		assertThat(four.cpuLowNanos()).isEqualTo(20 * MS);
		assertThat(four.cpuHighNanos()).isEqualTo(60 * MS);
	}

	@Test
	void aMeasuredCpuTimeIsNoEstimate() {
		TimeBreakdown measured = TimeBreakdown.of(100 * MS, 20 * MS, true, 0, new StackTree(), new FrameTable())
			.cpuSamples(1, 20 * MS);
		assertThat(measured.cpuEstimated()).isFalse();
		assertThat(measured.cpuLowNanos()).isEqualTo(20 * MS);
		assertThat(measured.json().cpuSamples()).isNull();
		assertThat(measured.json().cpuLowMillis()).isNull();
	}

	@Test
	void severalRequestsRestOnAllTheirSamplesAndCountTripsPerRequest() {
		TimeBreakdown sum = TimeBreakdown.ofRequests(8, 800 * MS)
			.cpu(160 * MS, false)
			.wait(dev.spanprofile.profile.WaitKind.SOCKET_READ, "db:5432", false, 330 * MS, 33)
			.rest(310 * MS, 0)
			.build()
			.cpuSamples(16, 10 * MS);
		assertThat(sum.cpuLowNanos()).isEqualTo(120 * MS);
		assertThat(sum.cpuHighNanos()).isEqualTo(200 * MS);
		assertThat(sum.roundTripsText(CpuShare::millis))
			.isEqualTo("4.1 round trips a request to db:5432 (41.3 ms a request; 33 in all)");
		assertThat(sum.json().requests()).isEqualTo(8);
		assertThat(sum.json().roundTrips()).singleElement()
			.satisfies((trips) -> assertThat(trips.perRequest()).isEqualTo(4.1));
		assertThat(sum.unaccountedNanos()).isEqualTo(310 * MS);
		assertThat(sum.cpuNanos() + sum.waitNanos() + sum.unaccountedNanos()).isEqualTo(sum.durationNanos());
	}

}
