package dev.spanprofile.autoconfigure.metrics;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.metrics.OtlpExportMetrics;
import dev.spanprofile.actuate.metrics.SpanProfileMetrics;
import dev.spanprofile.attribution.AttributionCounters.Result;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import dev.spanprofile.autoconfigure.pyroscope.PyroscopeExportMetrics;
import dev.spanprofile.autoconfigure.pyroscope.PyroscopeExportStats;
import dev.spanprofile.otlp.OtlpProfilesExporter;
import dev.spanprofile.otlp.OtlpSettings;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanProfileStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.sdk.resources.Resource;
import io.pyroscope.javaagent.PyroscopeAgent;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class SpanProfileMetricsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SpanProfileAutoConfiguration.class,
				SpanProfileMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class));

	@Test
	void shouldBindEveryMeterToTheRegistry() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(SpanProfileMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			for (SampleKind kind : List.of(SampleKind.CPU, SampleKind.WALL)) {
				for (Result result : Result.values()) {
					assertThat(registry.find("spanprofile.samples")
						.tags("event", kind.id(), "result", result.id())
						.functionCounter()).as("%s %s", kind, result).isNotNull();
				}
			}
			assertThat(registry.find("spanprofile.samples").functionCounters()).hasSize(6);
			for (Result result : Result.values()) {
				assertThat(registry.find("spanprofile.allocated").tags("result", result.id()).functionCounter())
					.as("allocated %s", result)
					.isNotNull();
				assertThat(registry.find("spanprofile.lock.wait").tags("result", result.id()).functionCounter())
					.as("lock wait %s", result)
					.isNotNull();
			}
			assertThat(registry.find("spanprofile.spans.stored").gauge()).isNotNull();
			assertThat(registry.find("spanprofile.store.bytes").gauge()).isNotNull();
			assertThat(registry.find("spanprofile.collection").functionTimer()).isNotNull();
			assertThat(registry.find("spanprofile.timeline.gaps").functionCounter()).isNotNull();
			assertThat(registry.find("spanprofile.spans.evicted").functionCounter()).isNotNull();
			assertThat(registry.find("spanprofile.requests.awaiting").gauge()).isNotNull();
			assertThat(registry.find("spanprofile.requests.incomplete").functionCounter()).isNotNull();
			assertThat(registry.find("spanprofile.export.dropped").meters()).isEmpty();
			assertThat(registry.find("spanprofile.otlp.requests").meters()).isEmpty();
		});
	}

	@Test
	void shouldBindOtlpExportMetricsWhenExportingOverOtlp() {
		this.contextRunner.withUserConfiguration(OtlpExporterConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(OtlpExportMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			for (String reason : new String[] { "queue-full", "failed", "not-built" }) {
				FunctionCounter dropped = registry.find("spanprofile.otlp.dropped")
					.tag("reason", reason)
					.functionCounter();
				assertThat(dropped).as(reason).isNotNull();
				assertThat(dropped.count()).isZero();
			}
			assertThat(registry.find("spanprofile.otlp.dropped").meters()).hasSize(3);
			for (String counter : new String[] { "spanprofile.otlp.requests", "spanprofile.otlp.request.bytes",
					"spanprofile.otlp.uploaded", "spanprofile.otlp.spans.dropped" }) {
				assertThat(registry.get(counter).functionCounter().count()).as(counter).isZero();
			}
			assertThat(registry.get("spanprofile.otlp.queued").gauge().value()).isZero();
		});
	}

	@Test
	void storeMetersFollowTheStore() {
		this.contextRunner.withPropertyValues("spanprofile.max-spans=1").run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			SpanProfileStore store = context.getBean(SpanProfiler.class).store();
			for (int i = 1; i <= 3; i++) {
				String id = "000000000000000" + i;
				store.spanStarted("0123456789abcdef0123456789abcdef", id, null, false, "request " + i, "SERVER", i,
						"main");
				store.spanEnded(id, "request " + i, "OK", i + 1, false);
			}
			// A limit of one span: the two older requests were evicted.
			assertThat(registry.get("spanprofile.spans.stored").gauge().value()).isEqualTo(1);
			assertThat(registry.get("spanprofile.spans.evicted").functionCounter().count()).isEqualTo(2);
			assertThat(registry.get("spanprofile.store.bytes").gauge().value())
				.isEqualTo((double) store.approximateBytes())
				.isPositive();
			// Whether the dropped requests still await their samples depends on whether
			// a cycle ran in between; the room to await them is not max-spans but ten
			// thousand, so none went without them, and the meters say so.
			double awaiting = registry.get("spanprofile.requests.awaiting").gauge().value();
			double incomplete = registry.get("spanprofile.requests.incomplete").functionCounter().count();
			assertThat(awaiting).isEqualTo(store.awaitingSamples()).isBetween(0.0, 2.0);
			assertThat(incomplete).isEqualTo(store.droppedIncomplete()).isZero();
		});
	}

	@Test
	void collectionTimerCountsCycles() {
		this.contextRunner.run((context) -> {
			SpanProfiler profiler = context.getBean(SpanProfiler.class);
			FunctionTimer timer = context.getBean(MeterRegistry.class).get("spanprofile.collection").functionTimer();
			double before = timer.count();
			profiler.collectNow();
			profiler.collectNow();
			if (profiler.status().running()) {
				// The collector thread may run cycles of its own meanwhile.
				assertThat(timer.count()).isGreaterThanOrEqualTo(before + 2);
				assertThat(timer.totalTime(TimeUnit.NANOSECONDS)).isPositive();
			}
			else {
				assertThat(timer.count()).isZero();
			}
			assertThat(timer.count()).isLessThanOrEqualTo(profiler.collectionCycles().count());
		});
	}

	@Test
	void shouldBackOffOnAUserBinder() {
		this.contextRunner.withUserConfiguration(CustomMetricsConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(SpanProfileMetrics.class);
			assertThat(context.getBean(SpanProfileMetrics.class)).isSameAs(context.getBean("custom"));
		});
	}

	@Test
	void shouldNotBindWithoutAMeterRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SpanProfileAutoConfiguration.class,
					SpanProfileMetricsAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(SpanProfiler.class)
				.doesNotHaveBean(SpanProfileMetrics.class));
	}

	@Test
	void shouldNotBindWithoutMicrometer() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("io.micrometer.core"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(SpanProfiler.class)
				.doesNotHaveBean(SpanProfileMetrics.class));
	}

	@Test
	void shouldBindExportMetricsWhenExportingToPyroscope() {
		this.contextRunner.withUserConfiguration(ExportStatsConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(PyroscopeExportMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			for (String reason : new String[] { "queue-full", "failed", "local" }) {
				FunctionCounter dropped = registry.find("spanprofile.export.dropped")
					.tag("reason", reason)
					.functionCounter();
				assertThat(dropped).as(reason).isNotNull();
				assertThat(dropped.count()).isZero();
			}
			assertThat(registry.find("spanprofile.export.uploaded").functionCounter()).isNotNull();
		});
	}

	@Test
	void shouldNotBindExportMetricsWithoutThePyroscopeAgent() {
		this.contextRunner.withUserConfiguration(ExportStatsConfiguration.class)
			.withClassLoader(new FilteredClassLoader(PyroscopeAgent.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(SpanProfileMetrics.class)
				.doesNotHaveBean(PyroscopeExportMetrics.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomMetricsConfiguration {

		@Bean
		SpanProfileMetrics custom(SpanProfiler profiler) {
			return new SpanProfileMetrics(profiler);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OtlpExporterConfiguration {

		@Bean(destroyMethod = "close")
		OtlpProfilesExporter otlpExporter() {
			OtlpSettings settings = new OtlpSettings(URI.create("http://127.0.0.1:9/v1development/profiles"), Map.of(),
					true, Duration.ofMinutes(1), Duration.ofSeconds(1), 1, 1, true);
			return new OtlpProfilesExporter(settings, new FrameTable(), 10_000_000, Resource.getDefault());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ExportStatsConfiguration {

		@Bean
		PyroscopeExportStats exportStats() {
			return new PyroscopeExportStats();
		}

	}

}
