package dev.spanprofile.autoconfigure;

import java.time.Duration;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.aggregate.AggregateSettings;
import dev.spanprofile.actuate.SpanProfileEndpoint;
import dev.spanprofile.sampling.ProfilingEvent;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import org.junit.jupiter.api.Test;

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
		});
	}

	@Test
	void shouldNotSupplyBeansWithoutTheOpenTelemetrySdk() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(SdkTracerProvider.class)).run((context) -> {
			assertThat(context).doesNotHaveBean(SpanProfiler.class);
			assertThat(context).doesNotHaveBean(SpanProcessor.class);
			assertThat(context).doesNotHaveBean(SpanProfileEndpoint.class);
		});
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
			.withPropertyValues("spanprofile.interval=5ms", "spanprofile.event=itimer", "spanprofile.root-span-only=false",
					"spanprofile.max-spans=10", "spanprofile.max-memory=1MB", "spanprofile.dump-interval=250ms")
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
		// Upper case: a bare context runner lacks the application conversion service that makes "none" work.
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
					frames -> new dev.spanprofile.sampling.AsyncProfilerEngine(SpanProfilerSettings.defaults().sampler(),
							frames));
		}

	}

}
