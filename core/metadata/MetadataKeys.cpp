#include "metadata/MetadataKeys.h"

#include "base/Format.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

#include <algorithm>
#include <utility>
#include <vector>

namespace ts {
namespace {

const QString kSafetensors = QStringLiteral("safetensors / transformers");
const QString kHub = QStringLiteral("Hugging Face Hub");
const QString kModelSpec = QStringLiteral("Stability AI ModelSpec");
const QString kKohya = QStringLiteral("kohya-ss sd-scripts");
const QString kAdditionalNetworks = QStringLiteral("sd-webui-additional-networks");
const QString kComfy = QStringLiteral("ComfyUI");

struct Entry {
    const char* key;
    const QString* origin;
    const char* meaning;
};

// Exact keys, then prefixes (below) for families whose members need no sentence of their own.
const Entry kEntries[] = {
    {"format", &kSafetensors,
     "The framework that wrote the tensors: pt (PyTorch), tf, flax, np or mlx; transformers "
     "refuses to load a file without it as a PyTorch checkpoint."},
    {"total_parameters", &kHub,
     "The parameter count the writer declares. The Hub shows it instead of counting, but "
     "never above the count it computes from the headers."},
    {"modelspec.sai_model_spec", &kModelSpec, "The ModelSpec version the other modelspec.* keys follow."},
    {"modelspec.architecture", &kModelSpec,
     "The model's architecture id (stable-diffusion-xl-v1-base, flux-1-dev), "
     "with /lora or /textual-inversion for adapters."},
    {"modelspec.implementation", &kModelSpec,
     "The code the weights are meant for (a repository URL, or diffusers)."},
    {"modelspec.title", &kModelSpec, "The model's display name."},
    {"modelspec.author", &kModelSpec, "Who made the model."},
    {"modelspec.description", &kModelSpec, "A description of the model."},
    {"modelspec.date", &kModelSpec, "When the model was made (ISO 8601)."},
    {"modelspec.license", &kModelSpec, "The licence the weights are under."},
    {"modelspec.usage_hint", &kModelSpec, "How to use the model."},
    {"modelspec.thumbnail", &kModelSpec, "A preview image, as a data: URI."},
    {"modelspec.tags", &kModelSpec, "Comma-separated tags."},
    {"modelspec.merged_from", &kModelSpec, "The models this one was merged from."},
    {"modelspec.resolution", &kModelSpec, "The image size the model was trained for (WIDTHxHEIGHT)."},
    {"modelspec.prediction_type", &kModelSpec, "What the diffusion model predicts: epsilon (noise) or v."},
    {"modelspec.timestep_range", &kModelSpec, "The timesteps the model was trained on (min,max)."},
    {"modelspec.encoder_layer", &kModelSpec,
     "Which text encoder layer the model expects its text states from (CLIP skip)."},
    {"modelspec.hash_sha256", &kModelSpec, "SHA-256 of the tensor data, as the writer computed it."},
    {"modelspec.trigger_phrase", &kModelSpec, "The words that call up what an adapter was trained on."},
    {"modelspec.preprocessor", &kModelSpec, "The input preprocessing a control model expects."},
    {"modelspec.is_negative_embedding", &kModelSpec,
     "Whether a textual inversion is meant for the negative prompt."},
    {"modelspec.unet_dtype", &kModelSpec, "The dtype the UNet's weights were stored in."},
    {"modelspec.vae_dtype", &kModelSpec, "The dtype the VAE's weights were stored in."},
    {"ss_network_module", &kKohya,
     "The adapter's implementation: networks.lora (LoRA), lycoris.kohya (LyCORIS), "
     "networks.dylora..."},
    {"ss_network_dim", &kKohya, "The rank the adapter was trained with (network_dim)."},
    {"ss_network_alpha", &kKohya, "The alpha it was trained with: the update is scaled by alpha / rank."},
    {"ss_network_args", &kKohya, "Extra network arguments (conv_dim, algo...), as JSON."},
    {"ss_network_dropout", &kKohya, "The dropout applied to the adapter in training."},
    {"ss_base_model_version", &kKohya,
     "The base model family: sd_v1, sd_v2_768_v, sdxl_base_v1-0, flux1, sd3..."},
    {"ss_sd_model_name", &kKohya, "The base checkpoint the adapter was trained on."},
    {"ss_sd_model_hash", &kKohya, "The base checkpoint's legacy hash (8 hex digits of a partial SHA-256)."},
    {"ss_new_sd_model_hash", &kKohya, "SHA-256 of the base checkpoint file."},
    {"ss_vae_name", &kKohya, "The VAE used in training."},
    {"ss_vae_hash", &kKohya, "The VAE's legacy hash."},
    {"ss_new_vae_hash", &kKohya, "SHA-256 of the VAE file."},
    {"ss_v2", &kKohya, "Whether the base model is Stable Diffusion 2.x."},
    {"ss_output_name", &kKohya, "The name the training run saved under."},
    {"ss_session_id", &kKohya, "A random number shared by the epochs of one training run."},
    {"ss_training_started_at", &kKohya, "When training started (Unix time)."},
    {"ss_training_finished_at", &kKohya, "When this file was saved (Unix time)."},
    {"ss_training_comment", &kKohya, "A comment given at training time."},
    {"ss_learning_rate", &kKohya, "The learning rate."},
    {"ss_unet_lr", &kKohya, "The UNet's learning rate."},
    {"ss_text_encoder_lr", &kKohya, "The text encoder's learning rate."},
    {"ss_optimizer", &kKohya, "The optimizer and its arguments."},
    {"ss_lr_scheduler", &kKohya, "The learning-rate schedule."},
    {"ss_lr_warmup_steps", &kKohya, "Warm-up steps of the schedule."},
    {"ss_max_train_steps", &kKohya, "The planned number of training steps."},
    {"ss_steps", &kKohya, "The steps trained when this file was saved."},
    {"ss_epoch", &kKohya, "The epoch this file was saved at."},
    {"ss_num_epochs", &kKohya, "The planned number of epochs."},
    {"ss_num_train_images", &kKohya, "Training images, repeats included."},
    {"ss_num_reg_images", &kKohya, "Regularisation images."},
    {"ss_num_batches_per_epoch", &kKohya, "Batches per epoch."},
    {"ss_batch_size_per_device", &kKohya, "The batch size on each device."},
    {"ss_total_batch_size", &kKohya, "The batch size over all devices and accumulation steps."},
    {"ss_gradient_accumulation_steps", &kKohya, "Steps whose gradients were accumulated before each update."},
    {"ss_gradient_checkpointing", &kKohya, "Whether gradient checkpointing was on."},
    {"ss_mixed_precision", &kKohya, "The mixed-precision mode (fp16, bf16, no)."},
    {"ss_full_fp16", &kKohya, "Whether the gradients were kept in fp16 too."},
    {"ss_resolution", &kKohya, "The training resolution."},
    {"ss_clip_skip", &kKohya, "How many of the text encoder's last layers were skipped."},
    {"ss_max_token_length", &kKohya, "The longest prompt, in tokens."},
    {"ss_seed", &kKohya, "The random seed."},
    {"ss_noise_offset", &kKohya, "The noise offset added in training."},
    {"ss_min_snr_gamma", &kKohya, "Min-SNR loss weighting's gamma."},
    {"ss_tag_frequency", &kKohya,
     "How often each caption tag occurred, per dataset folder (JSON): it tells what "
     "the adapter was trained on."},
    {"ss_dataset_dirs", &kKohya, "The dataset folders with their repeats and image counts (JSON)."},
    {"ss_reg_dataset_dirs", &kKohya, "The regularisation folders (JSON)."},
    {"ss_datasets", &kKohya, "The full dataset configuration (JSON)."},
    {"ss_bucket_info", &kKohya, "Aspect-ratio buckets and their image counts (JSON)."},
    {"ss_cache_latents", &kKohya, "Whether VAE latents were cached."},
    {"ss_enable_bucket", &kKohya, "Whether aspect-ratio bucketing was on."},
    {"ss_caption_dropout_rate", &kKohya, "The share of captions dropped in training."},
    {"ss_keep_tokens", &kKohya, "Leading caption tokens kept in place when shuffling."},
    {"ss_shuffle_caption", &kKohya, "Whether caption tags were shuffled."},
    {"ss_flip_aug", &kKohya, "Whether images were flipped for augmentation."},
    {"ss_color_aug", &kKohya, "Whether colours were augmented."},
    {"ss_sd_scripts_commit_hash", &kKohya, "The sd-scripts commit that trained the file."},
    {"sshs_model_hash", &kAdditionalNetworks,
     "SHA-256 of the tensor data (the file without its header), for "
     "matching adapters across renames."},
    {"sshs_legacy_hash", &kAdditionalNetworks, "The older, partial hash of the same data."},
    {"prompt", &kComfy, "The workflow's prompt graph that produced the file (JSON)."},
    {"workflow", &kComfy, "The ComfyUI workflow that produced the file (JSON)."},
};

const std::pair<const char*, const char*> kBaseVersions[] = {
    {"sd_v1", "Stable Diffusion 1.x"},
    {"sd_v2", "Stable Diffusion 2.x"},
    {"sd_v2_v", "Stable Diffusion 2.x (v-prediction)"},
    {"sd_v2_768_v", "Stable Diffusion 2.x 768 (v-prediction)"},
    {"sdxl_base_v0-9", "SDXL 0.9"},
    {"sdxl_base_v1-0", "SDXL 1.0"},
    {"flux1", "FLUX.1"},
    {"sd3", "Stable Diffusion 3"},
};

QString unixTime(const QString& value)
{
    bool ok = false;
    const double seconds = value.toDouble(&ok);
    if (!ok || seconds < 0 || seconds > 1e11)
        return {};
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(seconds * 1000), QTimeZone::utc())
               .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) +
           QStringLiteral(" UTC");
}

QString tagSummary(const QString& value)
{
    const QJsonObject folders = QJsonDocument::fromJson(value.toUtf8()).object();
    std::vector<std::pair<qint64, QString>> tags;
    for (auto f = folders.constBegin(); f != folders.constEnd(); ++f) {
        const QJsonObject counts = f.value().toObject();
        for (auto t = counts.constBegin(); t != counts.constEnd(); ++t)
            tags.emplace_back(static_cast<qint64>(t.value().toDouble()), t.key());
    }
    if (tags.empty())
        return {};
    std::sort(tags.begin(), tags.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList top;
    for (std::size_t i = 0; i < tags.size() && i < 5; ++i)
        top << QStringLiteral("%1 (%2)").arg(elideText(tags[i].second, 40)).arg(tags[i].first);
    return QStringLiteral("%1 in %2; most frequent: %3")
        .arg(formatNoun(tags.size(), "tag", "tags"),
             formatNoun(static_cast<std::uint64_t>(folders.size()), "folder", "folders"),
             top.join(QStringLiteral(", ")));
}

QString decode(const QString& key, const QString& value)
{
    if (key == QLatin1String("format")) {
        static const std::pair<const char*, const char*> names[] = {{"pt", "PyTorch"},
                                                                    {"tf", "TensorFlow"},
                                                                    {"flax", "Flax/JAX"},
                                                                    {"np", "NumPy"},
                                                                    {"mlx", "Apple MLX"}};
        for (const auto& [code, name] : names) {
            if (value == QLatin1String(code))
                return QLatin1String(name);
        }
        return {};
    }
    if (key == QLatin1String("total_parameters")) {
        bool ok = false;
        const qulonglong n = value.trimmed().toULongLong(&ok);
        return ok ? QStringLiteral("%1 parameters (%2)").arg(formatGrouped(n), formatCount(n)) : QString();
    }
    if (key == QLatin1String("ss_training_started_at") || key == QLatin1String("ss_training_finished_at"))
        return unixTime(value);
    if (key == QLatin1String("ss_tag_frequency"))
        return tagSummary(value);
    if (key == QLatin1String("ss_base_model_version")) {
        for (const auto& [code, name] : kBaseVersions) {
            if (value == QLatin1String(code))
                return QLatin1String(name);
        }
        return {};
    }
    if (key == QLatin1String("modelspec.thumbnail") && value.startsWith(QLatin1String("data:"))) {
        const QString type = value.mid(5).section(QLatin1Char(';'), 0, 0).section(QLatin1Char(','), 0, 0);
        return QStringLiteral("%1 image, %2 of text")
            .arg(type.isEmpty() ? QStringLiteral("an") : type,
                 formatBytes(static_cast<std::uint64_t>(value.size())));
    }
    return {};
}

} // namespace

std::optional<MetadataExplanation> MetadataKeys::explain(const QString& key, const QString& value)
{
    for (const Entry& e : kEntries) {
        if (key == QLatin1String(e.key))
            return MetadataExplanation{*e.origin, QLatin1String(e.meaning), decode(key, value)};
    }
    // The rest of the families: kohya records every training option as ss_<option>.
    if (key.startsWith(QLatin1String("ss_")))
        return MetadataExplanation{
            kKohya, QStringLiteral("A training option recorded by sd-scripts (%1).").arg(key.mid(3)),
            decode(key, value)};
    if (key.startsWith(QLatin1String("modelspec.")))
        return MetadataExplanation{kModelSpec, QStringLiteral("A ModelSpec field (%1).").arg(key.mid(10)),
                                   QString()};
    return std::nullopt;
}

} // namespace ts
