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

	@Test
	void loopbackCallersBehindForwardedHeadersFailToStartSayingWhy() {
		ApplicationContextRunner loopback = this.contextRunner.withPropertyValues("spanprofile.on-demand.enabled=true",
				"spanprofile.on-demand.allow-loopback=true", "spanprofile.on-demand.token=t");
		loopback.withPropertyValues("server.forward-headers-strategy=framework").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(OnDemandLoopbackForwardedException.class);
			FailureAnalysis analysis = new OnDemandLoopbackForwardedFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription())
				.contains("spanprofile.on-demand.allow-loopback=true accepts any caller on a loopback address")
				.contains("(server.forward-headers-strategy=framework)");
			assertThat(analysis.getAction()).contains("Set spanprofile.on-demand.token")
				.contains("server.forward-headers-strategy=none");
		});
		loopback.withPropertyValues("server.forward-headers-strategy=NATIVE")
			.run((context) -> assertThat(context.getStartupFailure())
				.hasRootCauseMessage("spanprofile.on-demand.allow-loopback is true but the caller's address comes "
						+ "from forwarded headers: server.forward-headers-strategy=native"));
		// Spring Boot turns forwarded headers on by itself on Kubernetes.
		loopback.withPropertyValues("spring.main.cloud-platform=kubernetes")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("the application runs on KUBERNETES"));
		loopback.withPropertyValues("spring.main.cloud-platform=kubernetes", "server.forward-headers-strategy=none")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(OnDemandRequests.class));
		// A token alone is not affected: it does not trust the caller's address.
		this.contextRunner
			.withPropertyValues("spanprofile.on-demand.enabled=true", "spanprofile.on-demand.token=t",
					"server.forward-headers-strategy=native")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(OnDemandRequests.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class SamplerConfiguration {

		@Bean
		Sampler sampler() {
			return Sampler.alwaysOff();
		}

	}

}
