"""The parameter records refuse what the model cannot run, naming the field."""

import pytest

from perfstudies.models.mdf.params import DeviceParams, ImsParams, PanelParams, TsoParams


@pytest.mark.parametrize(("record", "changes", "field"), [
    (DeviceParams, {"scheduling_parameter": 0}, "scheduling_parameter"),
    (DeviceParams, {"scheduling_parameter": 6}, "scheduling_parameter"),
    (ImsParams, {"ims_share": 0.7, "tso_share": 0.5}, "ims_share \\+ tso_share"),
    (DeviceParams, {"rate": -1.0}, "rate"),
    (DeviceParams, {"rate": 59.5}, "rate"),          # saturates a 17 ms device
    (DeviceParams, {"device": "2314"}, "device"),
    (TsoParams, {"scheduling_parameter": 5, "ims_share": 0.1, "switch_ms": 2.0}, "switch_ms"),
    (ImsParams, {"terminals": -5}, "terminals"),
    (TsoParams, {"warmup": 2000.0}, "warmup"),
    (PanelParams, {"device_rate": 0.0}, "device_rate"),
])
def test_invalid_parameters_are_refused_by_name(record, changes, field):
    with pytest.raises(ValueError, match=f"{record.__name__}.{field}"):
        record(**changes)


def test_domain_name_is_checked():
    with pytest.raises(ValueError, match="domain = 'CICS'"):
        DeviceParams().windows("CICS")
