//! The gRPC services on the served index: `api.Registry`, `api.ExperimentalRegistry`,
//! `grpc.health.v1.Health` (SERVING for any name, as opm answers) and server
//! reflection v1 and v1alpha listing those five services.

use std::pin::Pin;
use std::sync::Arc;

use tonic::codegen::tokio_stream::{self, Stream};
use tonic::{Request, Response, Status};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_server::{Health, HealthServer};
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};

use super::api::{
    self, experimental_registry_server::ExperimentalRegistry,
    experimental_registry_server::ExperimentalRegistryServer, registry_server::Registry,
    registry_server::RegistryServer,
};
use super::index::{Gvk, Index};
use super::log;

type Answer<T> = Result<Response<T>, Status>;
type Messages<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

/// The registry and experimental services over one index.
#[derive(Clone)]
pub(crate) struct Services {
    index: Arc<Index>,
}

/// The router with every service opm registers.
pub(crate) fn router(index: Arc<Index>) -> Result<tonic::service::Routes, String> {
    let services = Services { index };
    let reflection = |builder: tonic_reflection::server::Builder<'static>| {
        builder
            .include_reflection_service(false)
            .register_encoded_file_descriptor_set(api::DESCRIPTORS)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(
                tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
            )
    };
    let v1 = reflection(tonic_reflection::server::Builder::configure())
        .build_v1()
        .map_err(|error| format!("server reflection: {error}"))?;
    let v1alpha = reflection(tonic_reflection::server::Builder::configure())
        .build_v1alpha()
        .map_err(|error| format!("server reflection: {error}"))?;
    let mut routes = tonic::service::Routes::new(RegistryServer::new(services.clone()));
    routes = routes
        .add_service(ExperimentalRegistryServer::new(services))
        .add_service(HealthServer::new(AlwaysServing))
        .add_service(v1)
        .add_service(v1alpha);
    Ok(routes)
}

/// The API a provider query names (three request types of the same fields).
trait AskedApi {
    fn gvk(&self) -> Gvk<'_>;
}

macro_rules! asked_api {
    ($($request:ty),*) => {$(
        impl AskedApi for $request {
            fn gvk(&self) -> Gvk<'_> {
                Gvk {
                    group: &self.group,
                    version: &self.version,
                    kind: &self.kind,
                }
            }
        }
    )*};
}

asked_api!(
    api::GetAllProvidersRequest,
    api::GetLatestProvidersRequest,
    api::GetDefaultProviderRequest
);

fn unknown(message: String) -> Status {
    Status::unknown(message)
}

fn stream<T: Send + 'static>(items: Vec<T>) -> Messages<T> {
    Box::pin(tokio_stream::iter(items.into_iter().map(Ok)))
}

#[tonic::async_trait]
impl Registry for Services {
    type ListPackagesStream = Messages<api::PackageName>;
    type GetChannelEntriesThatReplaceStream = Messages<api::ChannelEntry>;
    type GetChannelEntriesThatProvideStream = Messages<api::ChannelEntry>;
    type GetLatestChannelEntriesThatProvideStream = Messages<api::ChannelEntry>;
    type ListBundlesStream = Messages<api::Bundle>;

    async fn list_packages(
        &self,
        request: Request<api::ListPackageRequest>,
    ) -> Answer<Self::ListPackagesStream> {
        log::request("ListPackages", request.get_ref());
        let names = self
            .index
            .package_names()
            .map(|name| api::PackageName {
                name: name.to_owned(),
            })
            .collect();
        Ok(Response::new(stream(names)))
    }

    async fn get_package(&self, request: Request<api::GetPackageRequest>) -> Answer<api::Package> {
        log::request("GetPackage", request.get_ref());
        self.index
            .package(&request.get_ref().name)
            .map(Response::new)
            .map_err(unknown)
    }

    async fn get_bundle(&self, request: Request<api::GetBundleRequest>) -> Answer<api::Bundle> {
        log::request("GetBundle", request.get_ref());
        let asked = request.get_ref();
        self.index
            .bundle(&asked.pkg_name, &asked.channel_name, &asked.csv_name)
            .map(Response::new)
            .map_err(unknown)
    }

    async fn get_bundle_for_channel(
        &self,
        request: Request<api::GetBundleInChannelRequest>,
    ) -> Answer<api::Bundle> {
        log::request("GetBundleForChannel", request.get_ref());
        let asked = request.get_ref();
        self.index
            .bundle_for_channel(&asked.pkg_name, &asked.channel_name)
            .map(Response::new)
            .map_err(unknown)
    }

    async fn get_channel_entries_that_replace(
        &self,
        request: Request<api::GetAllReplacementsRequest>,
    ) -> Answer<Self::GetChannelEntriesThatReplaceStream> {
        log::request("GetChannelEntriesThatReplace", request.get_ref());
        self.index
            .entries_that_replace(&request.get_ref().csv_name)
            .map(|entries| Response::new(stream(entries)))
            .map_err(unknown)
    }

    async fn get_bundle_that_replaces(
        &self,
        request: Request<api::GetReplacementRequest>,
    ) -> Answer<api::Bundle> {
        log::request("GetBundleThatReplaces", request.get_ref());
        let asked = request.get_ref();
        self.index
            .bundle_that_replaces(&asked.csv_name, &asked.pkg_name, &asked.channel_name)
            .map(Response::new)
            .map_err(unknown)
    }

    async fn get_channel_entries_that_provide(
        &self,
        request: Request<api::GetAllProvidersRequest>,
    ) -> Answer<Self::GetChannelEntriesThatProvideStream> {
        log::request("GetChannelEntriesThatProvide", request.get_ref());
        let gvk = request.get_ref().gvk();
        self.index
            .entries_that_provide(&gvk)
            .map(|entries| Response::new(stream(entries)))
            .map_err(unknown)
    }

    async fn get_latest_channel_entries_that_provide(
        &self,
        request: Request<api::GetLatestProvidersRequest>,
    ) -> Answer<Self::GetLatestChannelEntriesThatProvideStream> {
        log::request("GetLatestChannelEntriesThatProvide", request.get_ref());
        let gvk = request.get_ref().gvk();
        self.index
            .latest_entries_that_provide(&gvk)
            .map(|entries| Response::new(stream(entries)))
            .map_err(unknown)
    }

    async fn get_default_bundle_that_provides(
        &self,
        request: Request<api::GetDefaultProviderRequest>,
    ) -> Answer<api::Bundle> {
        log::request("GetDefaultBundleThatProvides", request.get_ref());
        let gvk = request.get_ref().gvk();
        self.index
            .default_bundle_that_provides(&gvk)
            .map(Response::new)
            .map_err(unknown)
    }

    /// Made one message at a time as the client takes them: a client that
    /// stops reading holds no more than the connection's send window.
    async fn list_bundles(
        &self,
        request: Request<api::ListBundlesRequest>,
    ) -> Answer<Self::ListBundlesStream> {
        log::request("ListBundles", request.get_ref());
        let index = Arc::clone(&self.index);
        let count = index.entry_count();
        let bundles = (0..count).filter_map(move |at| {
            index
                .listed_bundle(at)
                .map(|made| made.map_err(Status::internal))
        });
        Ok(Response::new(Box::pin(tokio_stream::iter(bundles))))
    }
}

#[tonic::async_trait]
impl ExperimentalRegistry for Services {
    type ExperimentalListPackageCustomSchemasStream = Messages<prost_types::Struct>;

    async fn experimental_list_package_custom_schemas(
        &self,
        request: Request<api::ExperimentalListPackageCustomSchemasRequest>,
    ) -> Answer<Self::ExperimentalListPackageCustomSchemasStream> {
        log::request("ExperimentalListPackageCustomSchemas", request.get_ref());
        // Clients that did not acknowledge the API get an empty stream.
        let acknowledged = request
            .metadata()
            .get("x-acknowledge-experimental")
            .is_some_and(|value| value.as_bytes() == b"true");
        if !acknowledged {
            return Ok(Response::new(stream(Vec::new())));
        }
        let asked = request.get_ref();
        if asked.schema.is_empty() {
            return Err(Status::invalid_argument("schema is required"));
        }
        let blobs = self
            .index
            .customs(&asked.schema, &asked.package_name)
            .map_err(|invalid| Status::invalid_argument(invalid.0))?;
        Ok(Response::new(stream(blobs.to_vec())))
    }
}

/// opm's health server: every service name is SERVING once the port is open.
struct AlwaysServing;

#[tonic::async_trait]
impl Health for AlwaysServing {
    type WatchStream = Messages<HealthCheckResponse>;

    async fn check(&self, request: Request<HealthCheckRequest>) -> Answer<HealthCheckResponse> {
        log::request("Check", request.get_ref());
        Ok(Response::new(HealthCheckResponse {
            status: ServingStatus::Serving.into(),
        }))
    }

    async fn watch(&self, _: Request<HealthCheckRequest>) -> Answer<Self::WatchStream> {
        Err(Status::unimplemented(
            "unknown method Watch for service grpc.health.v1.Health",
        ))
    }
}
