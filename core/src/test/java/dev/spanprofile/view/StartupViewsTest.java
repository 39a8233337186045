package dev.spanprofile.view;

import java.util.List;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupSettings;
import dev.spanprofile.startup.StartupStep;
import dev.spanprofile.tracking.MonotonicEpoch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The startup views of a start of more steps than the timeline page shows: its JSON still
 * lists every one (PetClinic's 519 beans were 59 short of it), the page the longest.
 */
class StartupViewsTest {

	private final SpanProfiler profiler = new SpanProfiler(SpanProfilerSettings.defaults(),
			(frames) -> new IdleEngine());

	@AfterEach
	void stop() {
		this.profiler.stop();
	}

	@Test
	void theTimelinesJsonListsEveryStepAndItsPageTheLongest() {
		assertThat(this.profiler.start()).isTrue();
		StartupRecording recording = this.profiler.recordStartup(StartupSettings.defaults(), "start",
				MonotonicEpoch.nowEpochNanos());
		int beans = StartupView.TIMELINE + 100;
		for (int i = 0; i < beans; i++) {
			StartupStep bean = recording.begin("spring.beans.instantiate");
			bean.tag("beanName", "bean" + i);
			recording.end(bean);
		}
		recording.finish(-1, -1);
		SpanProfileViews views = new SpanProfileViews(this.profiler, new FrameClassifier(List.of("app")));
		StartupJson json = (StartupJson) views.startup("timeline", null).render(ProfileFormat.JSON);
		assertThat(json.steps()).isEqualTo(beans + 1);
		assertThat(json.timeline()).hasSize(beans + 1);
		assertThat(json.timeline()).extracting(StartupJson.Step::detail).contains("bean0", "bean" + (beans - 1));
		assertThat(json.timeline()).extracting(StartupJson.Step::id).isSorted();
		String page = (String) views.startup("timeline", null).render(ProfileFormat.HTML);
		long rows = page.split("<tr>", -1).length - 1;
		assertThat(rows).as("the page's rows").isBetween((long) StartupView.TIMELINE, StartupView.TIMELINE + 1L);
	}

}
