package dev.spanprofile.sampling;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProfilingEventPlatformTest {

	@Test
	void perThreadTimersAreAskedForOnLinuxOnly() {
		assertThat(ProfilingEvent.CTIMER.onPlatform("Linux")).isEqualTo(ProfilingEvent.CTIMER);
		assertThat(ProfilingEvent.CTIMER.onPlatform("Mac OS X")).isEqualTo(ProfilingEvent.ITIMER);
		assertThat(ProfilingEvent.CTIMER.onPlatform("Windows 11")).isEqualTo(ProfilingEvent.ITIMER);
		assertThat(ProfilingEvent.CTIMER.onPlatform(null)).isEqualTo(ProfilingEvent.ITIMER);
	}

	@Test
	void everyOtherEventIsAskedForAsConfigured() {
		for (ProfilingEvent event : ProfilingEvent.values()) {
			if (event != ProfilingEvent.CTIMER) {
				assertThat(event.onPlatform("Mac OS X")).isEqualTo(event);
				assertThat(event.onPlatform("Linux")).isEqualTo(event);
			}
		}
	}

	@Test
	void theDescriptionNamesTheTimerInUse() {
		SamplerSettings settings = new SamplerSettings(
				Set.of(ProfilingEvent.CTIMER, ProfilingEvent.WALL, ProfilingEvent.ALLOC), Duration.ofMillis(10),
				Path.of("."), null, null);
		assertThat(settings.eventsDescriptionOn("Linux")).isEqualTo("ctimer,wall,alloc");
		assertThat(settings.eventsDescriptionOn("Mac OS X")).isEqualTo("itimer,wall,alloc");
	}

}
