package dev.spanprofile.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.aggregate.AggregateSettings;
import dev.spanprofile.actuate.SpanProfileEndpoint;
import dev.spanprofile.autoconfigure.unsampled.UnsampledRequestObservationHandler;
import dev.spanprofile.autoconfigure.unsampled.UnsampledRequestsAutoConfiguration;
import dev.spanprofile.link.SpanLinkProcessor;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.slowlog.SlowSpanLogSettings;
import dev.spanprofile.store.RetentionSettings;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class SpanProfileAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SpanProfileAutoConfiguration.class, SpanProfileEndpointAutoConfiguration.class));

	@Test
	void shouldSupplyBeans() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(SpanProfiler.class);
			assertThat(context).hasSingleBean(SpanProfilerLifecycle.class);
			assertThat(context).hasSingleBean(SpanProcessor.class);
			assertThat(context.getBean(SpanProfilerLifecycle.class).isRunning()).isTrue();
			assertThat(context.getBean(SpanProfiler.class).status().running()).isTrue();
		});
	}

	@Test
	void lifecycleReportsNotRunningWhenTheProfilerCouldNotStart(@TempDir Path temp) throws IOException {
		// A regular file where the recording directory should be: async-profiler cannot
		// start, whether or not an earlier test in this JVM already loaded its library.
		Path notADirectory = Files.writeString(temp.resolve("not-a-directory"), "");
		this.contextRunner
			.withPropertyValues("spanprofile.engine=async-profiler", "spanprofile.work-directory=" + notADirectory)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(SpanProfiler.class).status().running()).isFalse();
				assertThat(context.getBean(SpanProfilerLifecycle.class).isRunning()).isFalse();
			});
	}

	@Test
	void shouldNotSupplyBeansWithoutTheOpenTelemetrySdk() {
		// Exposed, so that only the missing SDK can be why the endpoint is absent.
		this.contextRunner.withClassLoader(new FilteredClassLoader(SdkTracerProvider.class))
			.withPropertyValues("management.endpoints.web.exposure.include=spanprofile")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(SpanProfiler.class);
				assertThat(context).doesNotHaveBean(SpanProcessor.class);
				assertThat(context).doesNotHaveBean(SpanProfileEndpoint.class);
			});
	}

	@Test
	void countsUnsampledRequestsWhereMicrometerTracingIsUnlessSwitchedOff() {
		ApplicationContextRunner runner = this.contextRunner
			.withConfiguration(AutoConfigurations.of(UnsampledRequestsAutoConfiguration.class));
		runner.run((context) -> assertThat(context).hasSingleBean(UnsampledRequestObservationHandler.class));
		runner.withPropertyValues("spanprofile.profile-unsampled-requests=false")
			.run((context) -> assertThat(context).doesNotHaveBean(UnsampledRequestObservationHandler.class));
		runner.withClassLoader(new FilteredClassLoader(TracingObservationHandler.class))
			.run((context) -> assertThat(context).doesNotHaveBean(UnsampledRequestObservationHandler.class));
	}

	@Test
	void profilesFiftyUnsampledRequestsASecondUnlessToldOtherwise() {
		ApplicationContextRunner runner = this.contextRunner
			.withConfiguration(AutoConfigurations.of(UnsampledRequestsAutoConfiguration.class));
		runner.run((context) -> assertThat(
				context.getBean(SpanProfileProperties.class).getProfiledUnsampledRequestsPerSecond())
			.isEqualTo(50));
		runner.withPropertyValues("spanprofile.profiled-unsampled-requests-per-second=0")
			.run((context) -> assertThat(context).hasSingleBean(UnsampledRequestObservationHandler.class));
		runner.withPropertyValues("spanprofile.profiled-unsampled-requests-per-second=-1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("profiled unsampled requests per second must be 0 or more, was -1"));
	}

	@Test
	void shouldNotSupplyBeansWhenDisabled() {
		this.contextRunner.withPropertyValues("spanprofile.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(SpanProfiler.class);
			assertThat(context).doesNotHaveBean(SpanProfilerLifecycle.class);
			assertThat(context).doesNotHaveBean(SpanProcessor.class);
		});
	}

	@Test
	void shouldBindProperties() {
		this.contextRunner
			.withPropertyValues("spanprofile.interval=5ms", "spanprofile.event=itimer",
					"spanprofile.root-span-only=false", "spanprofile.max-spans=10", "spanprofile.max-memory=1MB",
					"spanprofile.dump-interval=250ms")
			.run((context) -> {
				SpanProfilerSettings settings = context.getBean(SpanProfiler.class).settings();
				assertThat(settings.sampler().interval()).isEqualTo(Duration.ofMillis(5));
				assertThat(settings.sampler().events()).containsExactly(ProfilingEvent.ITIMER);
				assertThat(settings.store().rootSpanOnly()).isFalse();
				assertThat(settings.store().maxSpans()).isEqualTo(10);
				// One budget: half for stored spans, half for the span-name aggregates.
				assertThat(settings.store().maxBytes()).isEqualTo(512 * 1024);
				assertThat(settings.aggregate().maxBytes()).isEqualTo(512 * 1024);
				assertThat(settings.dumpInterval()).isEqualTo(Duration.ofMillis(250));
			});
	}

	@Test
	void shouldBindRetentionAndSlowSpanLogProperties() {
		this.contextRunner
			.withPropertyValues("spanprofile.retention.slowest-per-name=3", "spanprofile.retention.window=15m",
					"spanprofile.retention.max-names=20", "spanprofile.retention.max-error-spans=7",
					"spanprofile.slow-span-log.threshold=750ms", "spanprofile.slow-span-log.max-per-minute=4",
					"management.endpoints.web.base-path=/manage")
			.run((context) -> {
				SpanProfilerSettings settings = context.getBean(SpanProfiler.class).settings();
				assertThat(settings.store().retention())
					.isEqualTo(new RetentionSettings(3, Duration.ofMinutes(15), 20, 7));
				assertThat(settings.slowSpanLog())
					.isEqualTo(new SlowSpanLogSettings(Duration.ofMillis(750), 4, "/manage/spanprofile"));
			});
	}

	@Test
	void retentionAndSlowSpanLogDefaults() {
		this.contextRunner.run((context) -> {
			SpanProfilerSettings settings = context.getBean(SpanProfiler.class).settings();
			assertThat(settings.store().retention()).isEqualTo(RetentionSettings.defaults());
			assertThat(settings.slowSpanLog().enabled()).isFalse();
			assertThat(settings.slowSpanLog().maxPerMinute()).isEqualTo(10);
		});
	}

	@Test
	void samplesCtimerEveryTwentyMillisecondsByDefault() {
		// ctimer, not cpu: a quarter of cpu's cost per sample on virtual machines (its
		// undercount when threads outnumber cores said in the docs); a request's CPU time
		// counted from samples, the threads' clocks not read.
		this.contextRunner.run((context) -> {
			SpanProfiler profiler = context.getBean(SpanProfiler.class);
			assertThat(profiler.settings().sampler().events()).containsExactly(ProfilingEvent.CTIMER);
			assertThat(profiler.settings().sampler().interval()).isEqualTo(Duration.ofMillis(20));
			assertThat(profiler.isExactCpuTime()).isFalse();
		});
	}

	@Test
	void readsTheThreadsCpuClocksOnlyWhenAskedTo() {
		this.contextRunner.withPropertyValues("spanprofile.exact-cpu-time=true")
			.run((context) -> assertThat(context.getBean(SpanProfiler.class).isExactCpuTime()).isTrue());
	}

	@Test
	void measuresTheWaitForACoreByDefaultUnlessTurnedOff() {
		this.contextRunner.run((context) -> assertThat(context.getBean(SpanProfiler.class).isCoreWait()).isTrue());
		this.contextRunner.withPropertyValues("spanprofile.core-wait=false")
			.run((context) -> assertThat(context.getBean(SpanProfiler.class).isCoreWait()).isFalse());
	}

	@Test
	void shouldLinkSpansToTheirFlameGraphsOnlyWhenABaseUrlIsSet() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(SpanLinkProcessor.class));
		this.contextRunner.withPropertyValues("spanprofile.link.base-url=http://orders-7f9c:8080/actuator/spanprofile")
			.run((context) -> {
				assertThat(context).hasSingleBean(SpanLinkProcessor.class);
				assertThat(context.getBeansOfType(SpanProcessor.class)).hasSize(2);
			});
	}

	@Test
	void shouldBindAggregateProperties() {
		this.contextRunner
			.withPropertyValues("spanprofile.aggregate.window=15m", "spanprofile.aggregate.max-names=7",
					"spanprofile.aggregate.max-stacks=300")
			.run((context) -> {
				AggregateSettings aggregate = context.getBean(SpanProfiler.class).settings().aggregate();
				assertThat(aggregate.window()).isEqualTo(Duration.ofMinutes(15));
				assertThat(aggregate.bucket()).isEqualTo(Duration.ofMinutes(1));
				assertThat(aggregate.maxNames()).isEqualTo(7);
				assertThat(aggregate.maxStacks()).isEqualTo(300);
				assertThat(aggregate.maxBytes()).isEqualTo(32L * 1024 * 1024);
			});
	}

	@Test
	void longAggregateWindowsHaveSixtyBuckets() {
		this.contextRunner.withPropertyValues("spanprofile.aggregate.window=24h").run((context) -> {
			AggregateSettings aggregate = context.getBean(SpanProfiler.class).settings().aggregate();
			assertThat(aggregate.bucket()).isEqualTo(Duration.ofMinutes(24));
		});
	}

	@Test
	void shouldBindAllocationAndLockSampling() {
		this.contextRunner
			.withPropertyValues("spanprofile.event=cpu,alloc,lock", "spanprofile.alloc-interval=64KB",
					"spanprofile.lock-threshold=2ms")
			.run((context) -> {
				SpanProfilerSettings settings = context.getBean(SpanProfiler.class).settings();
				assertThat(settings.sampler().events()).containsExactlyInAnyOrder(ProfilingEvent.CPU,
						ProfilingEvent.ALLOC, ProfilingEvent.LOCK);
				assertThat(settings.sampler().allocInterval()).isEqualTo(64 * 1024);
				assertThat(settings.sampler().lockThreshold()).isEqualTo(Duration.ofMillis(2));
			});
	}

	@Test
	void shouldDefaultToAsyncProfilersAllocationInterval() {
		this.contextRunner.withPropertyValues("spanprofile.event=alloc").run((context) -> {
			SpanProfilerSettings settings = context.getBean(SpanProfiler.class).settings();
			assertThat(settings.sampler().allocInterval()).isEqualTo(512 * 1024);
			assertThat(settings.sampler().lockThreshold()).isZero();
		});
	}

	@Test
	void shouldFailClearlyOnANonPositiveAllocationInterval() {
		this.contextRunner.withPropertyValues("spanprofile.event=alloc", "spanprofile.alloc-interval=0B")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("alloc-interval");
			});
	}

	@Test
	void shouldFailClearlyOnAnUnknownEvent() {
		this.contextRunner.withPropertyValues("spanprofile.event=cycles").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("cycles");
		});
	}

	@Test
	void shouldNotSupplyEndpointUnlessExposed() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(SpanProfileEndpoint.class));
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=spanprofile")
			.run((context) -> assertThat(context).hasSingleBean(SpanProfileEndpoint.class));
		// Upper case: a bare context runner lacks the application conversion service that
		// makes "none" work.
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=spanprofile",
					"management.endpoint.spanprofile.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(SpanProfileEndpoint.class));
	}

	@Test
	void shouldBackOffOnCustomProfiler() {
		this.contextRunner.withUserConfiguration(CustomProfilerConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(SpanProfiler.class);
			assertThat(context.getBean(SpanProfiler.class)).isSameAs(context.getBean("customSpanProfiler"));
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomProfilerConfiguration {

		@Bean
		SpanProfiler customSpanProfiler() {
			return new SpanProfiler(SpanProfilerSettings.defaults(),
					frames -> new dev.spanprofile.sampling.AsyncProfilerEngine(
							SpanProfilerSettings.defaults().sampler(), frames));
		}

	}

}
