// ModeEditor: a sync-mode selector and the fields of the selected mode's parameters, built from a
// mode catalogue (the engine's compiled-in one, or the one an attached engine sent in its
// snapshot). Only the parameters the selection uses are shown. The steering panel and the
// local-cluster dialog both edit modes with it.
#pragma once

#include <QStringList>
#include <QWidget>

#include <map>
#include <string>

#include "engine/proto/syncscope.pb.h"

class QComboBox;
class QFormLayout;

namespace syncscope::ui {

class ModeEditor : public QWidget {
    Q_OBJECT
public:
    /// `hiddenFields`: parameters another control supplies (the steering panel's groups slider);
    /// they keep the value last loaded.
    explicit ModeEditor(QWidget* parent = nullptr, QStringList hiddenFields = {});

    /// Rebuilds the fields when the catalogue differs from the one shown (keeps the selection).
    void setCatalog(const wire::Catalog& catalog);
    const wire::Catalog& catalog() const { return m_catalog; }

    /// The selected mode with the parameters it uses; unused ones are left at 0.
    wire::ModeSettings settings() const;
    /// Shows `settings` (sends no edited()).
    void load(const wire::ModeSettings& settings);

    QComboBox* modeSelector() const { return m_mode; }
    /// The field of a parameter ("staleness_bound"): a QSpinBox, QDoubleSpinBox or QComboBox.
    QWidget* field(const std::string& name) const;
    /// Whether the field is shown for the current selection.
    bool isShown(const std::string& name) const;

    /// Translations of the catalogue's English texts (context syncscope::engine::ModeCatalog).
    static QString translated(const std::string& text);

signals:
    /// The person changed the selection or a parameter.
    void edited();
    /// The selection changed (by the person or by load()).
    void selectionChanged();

private:
    void rebuild();
    QWidget* createField(const wire::ParameterSpec& spec);
    void updateVisibility();
    double fieldValue(const wire::ParameterSpec& spec) const;
    void setFieldValue(const wire::ParameterSpec& spec, double value);

    wire::Catalog m_catalog;
    QStringList m_hidden;
    QFormLayout* m_form = nullptr;
    QComboBox* m_mode = nullptr;
    std::map<std::string, QWidget*> m_fields;
    wire::ModeSettings m_loaded;  // for hidden fields
};

}  // namespace syncscope::ui
