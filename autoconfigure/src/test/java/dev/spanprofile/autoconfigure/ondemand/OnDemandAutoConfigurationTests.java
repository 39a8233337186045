package dev.spanprofile.autoconfigure.ondemand;

import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class OnDemandAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SpanProfileAutoConfiguration.class, OnDemandAutoConfiguration.class))
		.withUserConfiguration(SamplerConfiguration.class);

	@Test
	void offByDefault() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(OnDemandRequests.class);
			assertThat(context.getBean(Sampler.class)).isNotInstanceOf(ForcingSampler.class);
		});
	}

	@Test
	void onWithATokenWrapsTheApplicationsSampler() {
		this.contextRunner.withPropertyValues("spanprofile.on-demand.enabled=true", "spanprofile.on-demand.token=t")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(OnDemandRequests.class);
				Sampler sampler = context.getBean(Sampler.class);
				assertThat(sampler).isInstanceOf(ForcingSampler.class);
				assertThat(sampler.getDescription()).contains("AlwaysOffSampler");
			});
	}

	@Test
	void onWithLoopbackCallersAndNoToken() {
		this.contextRunner
			.withPropertyValues("spanprofile.on-demand.enabled=true", "spanprofile.on-demand.allow-loopback=true")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(OnDemandRequests.class));
	}

	@Test
	void onWithAnEmptyTokenFailsToStartSayingWhatToSet() {
		this.contextRunner.withPropertyValues("spanprofile.on-demand.enabled=true", "spanprofile.on-demand.token= ")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				assertThat(failure).hasRootCauseInstanceOf(OnDemandTokenMissingException.class);
				FailureAnalysis analysis = new OnDemandTokenMissingFailureAnalyzer().analyze(failure);
				assertThat(analysis.getCause()).isInstanceOf(OnDemandTokenMissingException.class);
				assertThat(analysis.getDescription()).contains("spanprofile.on-demand.token is empty")
					.contains("X-Spanprofile");
				assertThat(analysis.getAction()).contains("Set spanprofile.on-demand.token")
					.contains("spanprofile.on-demand.allow-loopback=true");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class SamplerConfiguration {

		@Bean
		Sampler sampler() {
			return Sampler.alwaysOff();
		}

	}

}
